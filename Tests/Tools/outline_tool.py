"""The document outline as other programs read and change it, for Redline's bookmarks kept in the outline.

toc PATH: PyMuPDF's table of contents as JSON ([level, title, page from 1]), and pikepdf's count of the folders of
Redline's bookmarks (entries carrying /RedlineBookmarks) with every entry's /Parent, /Prev and /Next checked.
edit SRC OUT: what a user of another reader does to the folder: the first entry renamed "Findings", the second
removed, and "Appendix" (page 20) added last; saved as pikepdf saves.
"""
import json
import sys

import pymupdf as fitz
import pikepdf


def walk(first, parent, problems, depth=0):
    """Every entry from `first` along /Next, checking the links both ways."""
    items = []
    previous = None
    item = first
    seen = set()
    while item is not None:
        if item.objgen in seen:
            problems.append("a loop in the outline")
            break
        seen.add(item.objgen)
        if item.get("/Parent") is None or item.Parent.objgen != parent.objgen:
            problems.append(f"entry {item.get('/Title')} has another /Parent")
        if previous is not None and (item.get("/Prev") is None or item.Prev.objgen != previous.objgen):
            problems.append(f"entry {item.get('/Title')} has a wrong /Prev")
        items.append(item)
        if "/First" in item:
            items += walk(item.First, item, problems, depth + 1)
        previous = item
        item = item.get("/Next")
    if previous is not None and parent.get("/Last") is not None and parent.Last.objgen != previous.objgen:
        problems.append(f"/Last of {parent.get('/Title', 'the outline')} is not its last entry")
    return items


def toc(path):
    document = fitz.open(path)
    problems = []
    folders = 0
    with pikepdf.open(path) as pdf:
        outlines = pdf.Root.get("/Outlines")
        if outlines is not None and "/First" in outlines:
            items = walk(outlines.First, outlines, problems)
            folders = sum(1 for item in items if "/RedlineBookmarks" in item)
            top = []
            item = outlines.First
            while item is not None and all(item.objgen != other.objgen for other in top):
                top.append(item)
                item = item.get("/Next")
            shown = 0
            for entry in top:
                shown += 1 + (int(entry.get("/Count", 0)) if int(entry.get("/Count", 0)) > 0 else 0)
            if "/Count" in outlines and int(outlines.Count) < len(top):
                problems.append(f"the outline's /Count {int(outlines.Count)} is less than its {len(top)} top-level entries")
    print(json.dumps({"toc": document.get_toc(simple=True), "folders": folders, "problems": problems}))


def edit(source, output):
    with pikepdf.open(source) as pdf:
        item = pdf.Root.Outlines.First
        folder = None
        while item is not None:
            if "/RedlineBookmarks" in item:
                folder = item
            item = item.get("/Next")
        first = folder.First
        first.Title = pikepdf.String("Findings")
        second = first.Next
        third = second.get("/Next")
        if third is not None:
            first.Next = third
            third.Prev = first
        else:
            del first["/Next"]
            folder.Last = first
        last = folder.Last
        added = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Appendix"), Parent=folder, Prev=last,
                                                     Dest=pikepdf.Array([pdf.pages[19].obj, pikepdf.Name.Fit])))
        last.Next = added
        folder.Last = added
        pdf.save(output)


if __name__ == "__main__":
    if sys.argv[1] == "toc":
        toc(sys.argv[2])
    else:
        edit(sys.argv[2], sys.argv[3])
