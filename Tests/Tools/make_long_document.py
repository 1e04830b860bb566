#!/usr/bin/env python3
"""Writes a long test document with pikepdf: N pages each saying "Page K", an outline entry for every
tenth page, named destinations, and on page 1 links to the first, a middle and the last page.

usage: make_long_document.py OUT.pdf PAGES"""
import sys

import pikepdf

out, count = sys.argv[1], int(sys.argv[2])
pdf = pikepdf.new()
font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                            BaseFont=pikepdf.Name.Helvetica))
resources = pdf.make_indirect(pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)))
for number in range(1, count + 1):
    content = f"BT /F1 24 Tf 72 700 Td (Page {number}) Tj ET 0.8 g 72 600 200 40 re f".encode()
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792], Resources=resources,
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
middle = count // 2
pages = pdf.pages
with pdf.open_outline() as outline:
    for index in range(0, count, 10):
        outline.root.append(pikepdf.OutlineItem(f"Section at page {index + 1}", index))
    outline.root.append(pikepdf.OutlineItem("Middle", middle))
    outline.root.append(pikepdf.OutlineItem("Last", count - 1))
dests = pikepdf.Array()
for name, index in (("first", 0), ("middle", middle), ("last", count - 1)):
    dests.append(pikepdf.String(name))
    dests.append(pikepdf.Array([pages[index].obj, pikepdf.Name.Fit]))
pdf.Root.Names = pikepdf.Dictionary(Dests=pdf.make_indirect(pikepdf.Dictionary(Names=dests)))
links = pikepdf.Array()
for slot, index in enumerate((0, middle, count - 1)):
    links.append(pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[72, 500 - slot * 30, 272, 520 - slot * 30],
        Border=[0, 0, 0], Dest=pikepdf.Array([pages[index].obj, pikepdf.Name.Fit]))))
links.append(pdf.make_indirect(pikepdf.Dictionary(
    Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[72, 380, 272, 400], Border=[0, 0, 0],
    A=pikepdf.Dictionary(S=pikepdf.Name.GoTo, D=pikepdf.String("middle")))))
pages[0].obj.Annots = links
pdf.docinfo["/Title"] = "Long test document"
pdf.docinfo["/Author"] = "Redline tests"
pdf.save(out)
