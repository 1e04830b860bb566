#!/usr/bin/env python3
"""Describes a PDF's structure as JSON, read with pikepdf (not with Redline's own code), so tests can
compare a saved copy with its original: per page its content streams, resources, annotations,
/Rotate and boxes; the outline, named destinations and link targets as page numbers; the metadata.

usage: pdf_probe.py FILE.pdf [PASSWORD]"""
import hashlib
import json
import sys

import pikepdf

PAGE_NUMBERS = {}

def canon(obj, depth=0, seen=None):
    """A value's structure with indirect references replaced by what they point to (streams hashed),
    so two files that number their objects differently compare equal when they say the same."""
    seen = seen or set()
    if depth > 12:
        return "<deep>"
    if isinstance(obj, pikepdf.Stream):
        try:
            data = hashlib.sha256(obj.read_bytes()).hexdigest()
        except Exception as error:  # undecodable image filters: fall back to the raw bytes
            data = "raw:" + hashlib.sha256(obj.read_raw_bytes()).hexdigest()
        skip = {"/Length", "/Filter", "/DecodeParms"}
        return {"stream": data, "dict": {k: canon(obj.stream_dict[k], depth + 1, seen) for k in obj.stream_dict.keys() if k not in skip}}
    if isinstance(obj, pikepdf.Dictionary):
        key = obj.objgen if obj.is_indirect else None
        if key in PAGE_NUMBERS:
            # A reference to a page is compared by which page it is, not by what the page holds.
            return f"page:{PAGE_NUMBERS[key]}"
        if key and key in seen:
            return "<cycle>"
        inner = seen | ({key} if key else set())
        return {k: canon(obj[k], depth + 1, inner) for k in obj.keys() if k not in ("/Parent", "/P", "/Popup", "/IRT")}
    if isinstance(obj, pikepdf.Array):
        return [canon(item, depth + 1, seen) for item in obj]
    if isinstance(obj, pikepdf.Name):
        return str(obj)
    if isinstance(obj, pikepdf.String):
        return "s:" + bytes(obj).hex()
    if isinstance(obj, (bool, int, float)):
        return obj
    try:
        return float(obj)
    except Exception:
        return str(obj)

def page_index(pdf, dest):
    """The page a destination leads to, or None."""
    try:
        if isinstance(dest, pikepdf.Array) and len(dest) > 0:
            target = dest[0]
            if isinstance(target, int):
                return int(target)
            for index, page in enumerate(pdf.pages):
                if page.obj.objgen == target.objgen:
                    return index
    except Exception:
        pass
    return None

def main():
    path = sys.argv[1]
    password = sys.argv[2] if len(sys.argv) > 2 else ""
    pdf = pikepdf.open(path, password=password)
    for index, page in enumerate(pdf.pages):
        PAGE_NUMBERS[page.obj.objgen] = index
    pages = []
    for page in pdf.pages:
        contents = page.obj.get("/Contents")
        streams = [] if contents is None else (list(contents) if isinstance(contents, pikepdf.Array) else [contents])
        resources = page.obj.get("/Resources")
        if resources is None:
            parent = page.obj.get("/Parent")
            while parent is not None and resources is None:
                resources = parent.get("/Resources")
                parent = parent.get("/Parent")
        annots = page.obj.get("/Annots")
        links = []
        for annot in (annots or []):
            if annot.get("/Subtype") == "/Link":
                dest = annot.get("/Dest")
                if dest is None and annot.get("/A") is not None:
                    dest = annot.A.get("/D")
                if isinstance(dest, (pikepdf.String, pikepdf.Name)):
                    links.append({"named": str(dest)})
                else:
                    links.append({"page": page_index(pdf, dest)})
        def inherited(key):
            node = page.obj
            while node is not None:
                if key in node:
                    return node[key]
                node = node.get("/Parent")
            return None
        rotate = inherited("/Rotate")
        pages.append({
            "objgen": list(page.obj.objgen),
            "contents": [hashlib.sha256(s.read_bytes()).hexdigest() for s in streams],
            "resources": canon(resources) if resources is not None else None,
            "annots": [canon(a) for a in (annots or [])],
            "links": links,
            "rotate": int(rotate) if rotate is not None else 0,
            "mediabox": [float(v) for v in inherited("/MediaBox")],
            "cropbox": [float(v) for v in inherited("/CropBox")] if inherited("/CropBox") is not None else None,
        })
    outline = []
    with pdf.open_outline() as tree:
        def walk(items):
            for item in items:
                outline.append({"title": item.title, "page": page_index(pdf, item.destination) if item.destination is not None else None})
                walk(item.children)
        walk(tree.root)
    names = {}
    if "/Names" in pdf.Root and "/Dests" in pdf.Root.Names:
        for name, dest in pikepdf.NameTree(pdf.Root.Names.Dests).items():
            if isinstance(dest, pikepdf.Dictionary):
                dest = dest.get("/D")
            names[name] = page_index(pdf, dest)
    info = {str(k): str(v) for k, v in pdf.docinfo.items()} if pdf.trailer.get("/Info") is not None else {}
    metadata = pdf.Root.get("/Metadata")
    print(json.dumps({
        "pageCount": len(pdf.pages),
        "pages": pages,
        "outline": outline,
        "names": names,
        "info": info,
        "xmp": hashlib.sha256(metadata.read_bytes()).hexdigest() if metadata is not None else None,
        "encrypted": pdf.is_encrypted,
    }))

main()
