#!/usr/bin/env python3
"""Lists every annotation of a PDF as JSON, read with pikepdf (not with Redline's own code), so tests can
check replies and review states as the PDF specification defines them: per annotation its subtype, the
type and value of /State and /StateModel, /IRT as the object and /NM it points to, /RT, /NM, /T, dates,
/F, its popup, and a digest of everything else so untouched annotations can be compared.

usage: annotation_probe.py FILE.pdf"""
import hashlib
import json
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


def digest(annot):
    """The annotation's own entries except the references that change when objects are renumbered."""
    parts = []
    for key in sorted(annot.keys()):
        if key in ("/P", "/Popup", "/IRT", "/Parent"):
            continue
        value = annot[key]
        if isinstance(value, pikepdf.Stream):
            parts.append((key, hashlib.sha256(value.read_bytes()).hexdigest()))
        else:
            parts.append((key, repr(value)))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


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
