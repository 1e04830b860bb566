#!/usr/bin/env python3
"""Writes Resources/sample.pdf, the document `make run` opens: text pages, a figure, a page with
/Rotate 90, an outline. Standard library only; the PDF is small enough to read in a text editor."""
import sys
import zlib

def text_block(lines, x, y, size=12, leading=16, font="F1"):
    out = ["BT", f"/{font} {size} Tf", f"{leading} TL", f"{x} {y} Td"]
    for line in lines:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        out.append(f"({escaped}) Tj T*")
    out.append("ET")
    return "\n".join(out)

pages = []
pages.append("\n".join([
    text_block(["Redline sample document"], 72, 720, size=28, font="F2"),
    text_block([
        "This document comes with Redline so that `make run` has something to open.",
        "Press t to type text at the cursor, the arrow keys to nudge it, + and - to",
        "change its size, c to change its colour, and :w to save a marked copy.",
        "",
        "Page 2 holds a figure, page 3 is turned on its side with /Rotate 90,",
        "and page 4 is plain text with room for review comments.",
    ], 72, 660),
]))
bars = []
for index, (height, rgb) in enumerate([(180, "0.12 0.31 0.85"), (260, "0.84 0.12 0.12"),
                                        (120, "0.48 0.18 0.75"), (220, "0.1 0.6 0.3")]):
    x = 110 + index * 100
    bars.append(f"{rgb} rg {x} 200 60 {height} re f")
pages.append("\n".join([
    text_block(["Figure 1: quarterly review counts"], 72, 720, size=18, font="F2"),
    "0 0 0 RG 2 w 90 200 m 520 200 l S 90 200 m 90 500 l S",
    *bars,
    "0.5 g 1 w 90 300 m 520 300 l S 90 400 m 520 400 l S",
    text_block(["Q1"], 130, 180, size=11),
    text_block(["Q2"], 230, 180, size=11), text_block(["Q3"], 330, 180, size=11), text_block(["Q4"], 430, 180, size=11),
    "0 0 0 RG 1.5 w 400 600 m 440 640 l 480 600 l h S",
]))
pages.append(text_block([
    "This page has /Rotate 90: readers show it in landscape.",
    "Markup placed here lands where you see it, not where the page's own",
    "coordinates would put it.",
], 72, 520, size=14))
pages.append(text_block([
    "Terms of the agreement",
    "",
    "1. The reviewer reads every page before approving.",
    "2. Changes are marked in red; questions in blue.",
    "3. The marked copy is saved beside the original.",
    "",
    "Signed: ______________________      Date: ____________",
], 72, 700, size=13, leading=22))

objects = {}
objects[1] = "<< /Type /Catalog /Pages 2 0 R /Outlines 20 0 R /PageMode /UseOutlines >>"
page_ids = [10 + i * 2 for i in range(len(pages))]
objects[2] = f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {len(pages)} /MediaBox [0 0 612 792] >>"
objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
objects[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
objects[5] = "<< /Font << /F1 3 0 R /F2 4 0 R >> >>"
streams = {}
for index, content in enumerate(pages):
    page_id = page_ids[index]
    rotate = " /Rotate 90" if index == 2 else ""
    objects[page_id] = f"<< /Type /Page /Parent 2 0 R /Resources 5 0 R /Contents {page_id + 1} 0 R{rotate} >>"
    streams[page_id + 1] = zlib.compress(content.encode("latin-1"))
titles = ["Introduction", "Figure", "Rotated page", "Terms"]
outline_ids = [21 + i for i in range(len(titles))]
objects[20] = f"<< /Type /Outlines /First {outline_ids[0]} 0 R /Last {outline_ids[-1]} 0 R /Count {len(titles)} >>"
for index, title in enumerate(titles):
    links = []
    if index > 0: links.append(f"/Prev {outline_ids[index - 1]} 0 R")
    if index < len(titles) - 1: links.append(f"/Next {outline_ids[index + 1]} 0 R")
    objects[outline_ids[index]] = (f"<< /Title ({title}) /Parent 20 0 R /Dest [{page_ids[index]} 0 R /Fit] "
                                   + " ".join(links) + " >>")
objects[30] = "<< /Title (Redline sample document) /Producer (Redline make-sample-pdf.py) >>"

output = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
offsets = {}
for number in sorted(set(objects) | set(streams)):
    offsets[number] = len(output)
    if number in streams:
        data = streams[number]
        output += f"{number} 0 obj\n<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data + b"\nendstream\nendobj\n"
    else:
        output += f"{number} 0 obj\n{objects[number]}\nendobj\n".encode("latin-1")
size = max(offsets) + 1
xref = len(output)
output += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
for number in range(1, size):
    output += (f"{offsets[number]:010d} 00000 n \n" if number in offsets else "0000000000 65535 f \n").encode()
output += f"trailer\n<< /Size {size} /Root 1 0 R /Info 30 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(sys.argv[1] if len(sys.argv) > 1 else "Resources/sample.pdf", "wb").write(output)
