"""What MuPDF (through PyMuPDF) reads in a PDF's annotations, or how it renders a page: an independent reader.

    mupdf_probe.py annotations FILE.pdf        -> JSON: per page, its rotation and annotations
    mupdf_probe.py render FILE.pdf PAGE DPI OUT.ppm   (PAGE counts from 1)

Coordinates are given in the displayed page (after /Rotate, from the crop box's top-left corner, y down), as
Redline's own display space: MuPDF's unrotated coordinates mapped through the page's rotation matrix.
"""
import hashlib
import json
import sys

import pymupdf


def display_point(point, page):
    mapped = pymupdf.Point(point) * page.rotation_matrix
    return [round(mapped.x, 3), round(mapped.y, 3)]


def display_rect(rect, page):
    mapped = pymupdf.Rect(rect) * page.rotation_matrix
    return [round(mapped.x0, 3), round(mapped.y0, 3), round(mapped.x1, 3), round(mapped.y1, 3)]


def annotations(path):
    document = pymupdf.open(path)
    pages = []
    for page in document:
        found = []
        for annot in page.annots():
            info = annot.info
            vertices = annot.vertices or []
            if annot.type[1] == "Ink":
                strokes = [[display_point(p, page) for p in stroke] for stroke in vertices]
            else:
                strokes = []
            quads = [display_point(p, page) for p in vertices] if annot.type[1] in ("Highlight", "Underline", "StrikeOut", "Squiggly") else []
            appearance = document.xref_get_key(annot.xref, "AP/N")
            digest = None
            if appearance[0] == "xref":
                digest = hashlib.sha256(document.xref_stream_raw(int(appearance[1].split()[0]))).hexdigest()
            points = [display_point(p, page) for stroke in vertices for p in (stroke if annot.type[1] == "Ink" else [stroke])]
            popup = annot.popup_rect if annot.has_popup else None
            found.append({
                "type": annot.type[1],
                "rect": display_rect(annot.rect, page),
                "stroke": [round(c, 4) for c in (annot.colors.get("stroke") or [])],
                "opacity": round(annot.opacity, 4),
                "title": info.get("title"),
                "content": info.get("content"),
                "name": info.get("name"),
                "id": info.get("id"),
                "creationDate": info.get("creationDate"),
                "modDate": info.get("modDate"),
                "width": annot.border.get("width"),
                "ink": strokes,
                "quads": quads,
                "defaultAppearance": document.xref_get_key(annot.xref, "DA")[1],
                "hasColor": document.xref_get_key(annot.xref, "C")[0] != "null",
                "flags": annot.flags,
                "rotate": annot.rotation,
                "hasAppearance": appearance[0] == "xref",
                "appearanceDigest": digest,
                "points": points,
                "popupRect": display_rect(popup, page) if popup is not None else None,
            })
        pages.append({"rotation": page.rotation, "annotations": found})
    print(json.dumps({"pages": pages}))


def render(path, page_number, dpi, out):
    document = pymupdf.open(path)
    document[int(page_number) - 1].get_pixmap(dpi=int(dpi), annots=True).save(out, output="ppm")


if __name__ == "__main__":
    if sys.argv[1] == "annotations":
        annotations(sys.argv[2])
    elif sys.argv[1] == "render":
        render(*sys.argv[2:6])
    else:
        sys.exit("usage: mupdf_probe.py annotations FILE | render FILE PAGE DPI OUT.ppm")
