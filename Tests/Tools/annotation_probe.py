#!/usr/bin/env python3
"""Lists every annotation of a PDF as JSON, read with pikepdf (not with Redline's own code), so tests can
check replies and review states as the PDF specification defines them: per annotation its subtype, the
type and value of /State and /StateModel, /IRT as the object and /NM it points to, /RT, /NM, /T, dates,
/F, its popup, how it looks beyond its colour (line endings, intent, border, justification, styles, rich text
as its words), and a digest of everything else so untouched annotations can be compared.

usage: annotation_probe.py FILE.pdf"""
import hashlib
import json
import re
import sys

import pikepdf


def kind(value):
    if isinstance(value, pikepdf.String):
        return "string"
    if isinstance(value, pikepdf.Name):
        return "name"
    return type(value).__name__


def text(value):
    return None if value is None else str(value)


def canonical(value, depth=0):
    """A value as text that stays the same when a writer renumbers objects or compresses a stream anew: streams by
    their decoded bytes and their dictionary without /Length, /Filter and /DecodeParms."""
    if depth > 12:
        return "…"
    if isinstance(value, pikepdf.Stream):
        keys = [k for k in sorted(value.keys()) if k not in ("/Length", "/Filter", "/DecodeParms")]
        inner = [(k, canonical(value[k], depth + 1)) for k in keys]
        return "stream %s %s" % (hashlib.sha256(value.read_bytes()).hexdigest(), inner)
    if isinstance(value, pikepdf.Dictionary):
        return repr([(k, canonical(value[k], depth + 1)) for k in sorted(value.keys()) if k not in ("/P", "/Parent")])
    if isinstance(value, pikepdf.Array):
        return repr([canonical(v, depth + 1) for v in value])
    return repr(value)


def digest(annot):
    """The annotation's own entries except the references that change when objects are renumbered."""
    parts = []
    for key in sorted(annot.keys()):
        if key in ("/P", "/Popup", "/IRT", "/Parent"):
            continue
        parts.append((key, canonical(annot[key])))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def numbers(value):
    return [round(float(v), 2) for v in value]


def look(annot):
    """The keys XFDF carries besides place, colour and text, in a form that compares across writers."""
    found = {}
    for key in ("/LE", "/IT", "/Q", "/DS"):
        if key in annot:
            value = annot[key]
            found[key[1:]] = [str(v) for v in value] if isinstance(value, pikepdf.Array) else str(value)
    if "/RC" in annot:
        words = re.sub(r"<[^>]*>", " ", str(annot.RC))
        found["RC words"] = " ".join(words.split())
    border = annot.get("/BS")
    if isinstance(border, pikepdf.Dictionary):
        if border.get("/S", "/S") != "/S":
            found["BS S"] = str(border.S)
        if "/D" in border:
            found["BS D"] = numbers(border.D)
    effect = annot.get("/BE")
    if isinstance(effect, pikepdf.Dictionary) and effect.get("/S") == "/C":
        found["BE I"] = float(effect.get("/I", 0))
    if "/CL" in annot:
        found["CL"] = numbers(annot.CL)
    if "/RD" in annot:
        found["RD"] = numbers(annot.RD)
    if annot.get("/Subtype") in ("/Text", "/Stamp") and "/Name" in annot:
        found["Name"] = str(annot.Name)
    for key in ("/IC", "/L", "/Vertices"):
        if key in annot:
            found[key[1:]] = numbers(annot[key])
    if annot.get("/Subtype") == "/FreeText" and "/C" in annot:
        found["FreeText C"] = numbers(annot.C)
    popup = annot.get("/Popup")
    if isinstance(popup, pikepdf.Dictionary):
        corners = numbers(popup.get("/Rect", []))
        if len(corners) == 4:
            found["popup rect"] = [min(corners[0], corners[2]), min(corners[1], corners[3]),
                                   max(corners[0], corners[2]), max(corners[1], corners[3])]
        found["popup open"] = bool(popup.get("/Open", False))
    return found


def main(path):
    pdf = pikepdf.open(path)
    result = []
    for page_number, page in enumerate(pdf.pages, start=1):
        for annot in page.obj.get("/Annots", []):
            entry = {
                "page": page_number,
                "object": "%d %d" % annot.objgen,
                "subtype": text(annot.get("/Subtype")),
                "NM": text(annot.get("/NM")),
                "T": text(annot.get("/T")),
                "Contents": text(annot.get("/Contents")),
                "CreationDate": text(annot.get("/CreationDate")),
                "M": text(annot.get("/M")),
                "F": int(annot.get("/F", 0)),
                "RT": text(annot.get("/RT")),
                "rect": [float(v) for v in annot.get("/Rect", [])],
                "digest": digest(annot),
                "look": look(annot),
            }
            for key in ("/State", "/StateModel"):
                if key in annot:
                    entry[key[1:]] = str(annot[key])
                    entry[key[1:] + "Type"] = kind(annot[key])
            irt = annot.get("/IRT")
            if irt is not None:
                entry["IRTObject"] = "%d %d" % irt.objgen if irt.is_indirect else "direct"
                entry["IRTName"] = text(irt.get("/NM"))
            popup = annot.get("/Popup")
            if popup is not None:
                entry["popupParentIsThis"] = popup.get("/Parent") is not None and popup.Parent.objgen == annot.objgen
            page_ref = annot.get("/P")
            entry["PIsPage"] = page_ref is not None and page_ref.objgen == page.obj.objgen
            result.append(entry)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
