"""Links and the outline of a PDF as pikepdf reads them, for comparing with what Redline reads through poppler.

Prints JSON: {"links": [{"page", "rect": [x, y, w, h], "uri" | "targetPage", "targetTop"}], "outline": [...]}.
Rectangles and tops are in display space (points from the crop box's top left, y down); pages without /Rotate only.
"""
import json
import sys

import pikepdf


def main(path):
    pdf = pikepdf.open(path)
    pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
    named = {}
    if "/Names" in pdf.Root and "/Dests" in pdf.Root.Names:
        for name, dest in pikepdf.NameTree(pdf.Root.Names.Dests).items():
            named[str(name)] = dest
    if "/Dests" in pdf.Root:
        for name, dest in pdf.Root.Dests.items():
            named[str(name)[1:]] = dest

    def crop(index):
        page = pdf.pages[index]
        box = page.obj.get("/CropBox", page.MediaBox)
        return [float(v) for v in box]

    def resolve(dest):
        if isinstance(dest, pikepdf.Dictionary):
            dest = dest.get("/D")
        if isinstance(dest, (pikepdf.String, pikepdf.Name)):
            dest = named.get(str(dest).lstrip("/"))
        if isinstance(dest, pikepdf.Dictionary):
            dest = dest.get("/D")
        if not isinstance(dest, pikepdf.Array) or len(dest) == 0:
            return None
        target = pages.get(dest[0].objgen)
        if target is None:
            return None
        top = None
        kind = str(dest[1]) if len(dest) > 1 else "/Fit"
        if kind == "/XYZ" and len(dest) > 3 and dest[3] is not None and not isinstance(dest[3], type(None)):
            try:
                top = crop(target)[3] - float(dest[3])
            except (TypeError, ValueError):
                top = None
        return {"targetPage": target, "targetTop": top}

    links = []
    for index, page in enumerate(pdf.pages):
        box = crop(index)
        for annot in page.obj.get("/Annots", []):
            if annot.get("/Subtype") != "/Link":
                continue
            x1, y1, x2, y2 = [float(v) for v in annot.Rect]
            entry = {"page": index, "rect": [min(x1, x2) - box[0], box[3] - max(y1, y2), abs(x2 - x1), abs(y2 - y1)]}
            action = annot.get("/A")
            if action is not None and action.get("/S") == "/URI":
                entry["uri"] = str(action.URI)
            else:
                found = resolve(annot.get("/Dest") if "/Dest" in annot else action)
                if found is None:
                    continue
                entry.update(found)
            links.append(entry)

    def outline(items):
        result = []
        for item in items:
            dest = item.destination if item.destination is not None else item.action
            found = resolve(dest) if dest is not None else None
            result.append({"title": item.title, "targetPage": found and found["targetPage"],
                           "children": outline(item.children)})
        return result

    with pdf.open_outline() as tree:
        tree_json = outline(tree.root)
    print(json.dumps({"links": links, "outline": tree_json}))


main(sys.argv[1])
