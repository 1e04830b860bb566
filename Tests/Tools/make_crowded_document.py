#!/usr/bin/env python3
"""Writes a one-page document crowded with annotations, for measuring Redline at scale (`redline bench
--scale` and by hand with /usr/bin/time).

usage: make_crowded_document.py OUT.pdf SHAPE COUNT
  mixed    COUNT annotations of every kind Redline lists (notes, text boxes, squares, highlights, ink), each
           with a name, an author, a date and an appearance of its own (so flatten draws them all)
  replies  one note and COUNT replies to it
  ink      one ink annotation of COUNT points"""
import sys

import pikepdf

out, shape, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
pdf = pikepdf.new()
font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                            BaseFont=pikepdf.Name.Helvetica))
content = b"BT /F1 24 Tf 72 700 Td (A crowded page) Tj ET"
page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                          Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
                          Contents=pdf.make_stream(content))
pdf.pages.append(pikepdf.Page(page))
page = pdf.pages[0].obj
Name = pikepdf.Name


def annotation(index, subtype, rect, **extra):
    return pikepdf.Dictionary(Type=Name.Annot, Subtype=subtype, Rect=rect, P=page,
                              NM=pikepdf.String(f"crowd-{index}"), T=pikepdf.String(f"Reviewer {index % 7}"),
                              M=pikepdf.String("D:20261126120000Z"), F=4, **extra)


def mixed(index):
    x = 20 + (index * 37) % 540
    y = 20 + (index * 53) % 700
    rect = [x, y, x + 40, y + 20]
    kind = index % 5
    if kind == 0:
        return annotation(index, Name.Text, rect, Contents=pikepdf.String(f"Note {index}"), C=[1, 1, 0])
    if kind == 1:
        return annotation(index, Name.FreeText, rect, Contents=pikepdf.String(f"Box {index}"),
                          DA=pikepdf.String("0 0 1 rg /Helv 10 Tf"))
    if kind == 2:
        return annotation(index, Name.Square, rect, C=[1, 0, 0], Contents=pikepdf.String(f"Square {index}"))
    if kind == 3:
        quad = [x, y + 20, x + 40, y + 20, x, y, x + 40, y]
        return annotation(index, Name.Highlight, rect, QuadPoints=quad, C=[1, 1, 0],
                          Contents=pikepdf.String(f"Highlight {index}"))
    return annotation(index, Name.Ink, rect, InkList=[[x, y, x + 20, y + 10, x + 40, y + 20]], C=[0, 0, 1])


def with_appearance(dictionary):
    rect = [float(number) for number in dictionary.Rect]
    width, height = rect[2] - rect[0], rect[3] - rect[1]
    dictionary.AP = pikepdf.Dictionary(N=pdf.make_stream(
        f"0 0 1 RG 1 w 0.5 0.5 {width - 1} {height - 1} re S".encode(),
        Type=Name.XObject, Subtype=Name.Form, BBox=[0, 0, width, height]))
    return dictionary


annots = pikepdf.Array()
if shape == "mixed":
    for index in range(count):
        annots.append(pdf.make_indirect(with_appearance(mixed(index))))
elif shape == "replies":
    parent = pdf.make_indirect(annotation(0, Name.Text, [100, 600, 120, 620], Contents=pikepdf.String("Discuss")))
    annots.append(parent)
    for index in range(1, count + 1):
        annots.append(pdf.make_indirect(annotation(index, Name.Text, [100, 600, 120, 620], IRT=parent,
                                                   Contents=pikepdf.String(f"Reply {index}"))))
elif shape == "ink":
    points = []
    for index in range(count):
        points += [50 + (index * 7) % 500, 50 + (index * 11) % 650]
    annots.append(pdf.make_indirect(annotation(0, Name.Ink, [50, 50, 550, 700], C=[0, 0, 1],
                                               InkList=[points[i:i + 2000] for i in range(0, len(points), 2000)])))
else:
    sys.exit(f"unknown shape {shape}")
page.Annots = annots
pdf.save(out)
