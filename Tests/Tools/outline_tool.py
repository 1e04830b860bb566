"""The document outline as other programs read and change it, for Redline's bookmarks kept in the outline.

toc PATH: PyMuPDF's table of contents as JSON ([level, title, page from 1]), and pikepdf's count of the folders of
Redline's bookmarks (entries carrying /RedlineBookmarks) with every entry's /Parent, /Prev and /Next checked.
edit SRC OUT: what a user of another reader does to the folder: the first entry renamed "Findings", the second
removed, and "Appendix" (page 20) added last; saved as pikepdf saves.
strip-metadata|foreign|rename-folder|forge-chapter SRC OUT: see change().
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


def folder_of(pdf):
    item = pdf.Root.Outlines.First
    folder = None
    while item is not None:
        if "/RedlineBookmarks" in item or item.get("/Title") == "Bookmarks":
            folder = item
        item = item.get("/Next")
    return folder


def append_entry(pdf, parent, entry):
    entry.Parent = parent
    if "/Last" in parent:
        entry.Prev = parent.Last
        parent.Last.Next = entry
    else:
        parent.First = entry
    parent.Last = entry
    parent.Count = int(parent.get("/Count", 0)) + 1


def change(source, output, how):
    """Other ways programs change the outline: strip the metadata (a scrubber), add entries Redline cannot turn into
    bookmarks (a named destination, a web link, an entry under an entry), rename the folder, or forge a folder key
    on a chapter of the document's own."""
    with pikepdf.open(source) as pdf:
        if how == "strip-metadata":
            del pdf.Root["/Metadata"]
        elif how == "foreign":
            folder = folder_of(pdf)
            pdf.Root.Names = pikepdf.Dictionary(Dests=pikepdf.Dictionary(
                Names=pikepdf.Array([pikepdf.String("chapter-two"), pikepdf.Array([pdf.pages[24].obj, pikepdf.Name.Fit])])))
            append_entry(pdf, folder, pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Named"), Dest=pikepdf.String("chapter-two"))))
            append_entry(pdf, folder, pdf.make_indirect(pikepdf.Dictionary(
                Title=pikepdf.String("Web"), A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org")))))
            child = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Child"), Dest=pikepdf.Array([pdf.pages[7].obj, pikepdf.Name.Fit])))
            append_entry(pdf, folder.First, child)
        elif how == "rename-folder":
            folder_of(pdf).Title = pikepdf.String("Meine Lesezeichen")
        elif how == "forge-chapter":
            pdf.Root.Outlines.First[pikepdf.Name("/RedlineBookmarks")] = pikepdf.Array([])
        pdf.save(output)


if __name__ == "__main__":
    if sys.argv[1] == "toc":
        toc(sys.argv[2])
    elif sys.argv[1] == "edit":
        edit(sys.argv[2], sys.argv[3])
    else:
        change(sys.argv[2], sys.argv[3], sys.argv[1])
