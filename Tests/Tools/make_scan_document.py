#!/usr/bin/env python3
"""Writes a scan-like document: PAGES pages, each one distinct JPEG (noise, so none compresses into another) filling
a letter page, about 230 KB a page: 200 pages make some 46 MB. For measuring saves of large files by hyperfine.

usage: make_scan_document.py OUT.pdf [PAGES]"""
import random
import sys

import pikepdf
import pymupdf

out = sys.argv[1]
pages = int(sys.argv[2]) if len(sys.argv) > 2 else 200
generator = random.Random(11)
pdf = pikepdf.new()
for index in range(pages):
    width, height = 460, 600
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, width, height, generator.randbytes(width * height * 3), False)
    jpeg = pixmap.tobytes("jpeg", jpg_quality=60)
    image = pdf.make_stream(jpeg, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=width, Height=height,
                            ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8, Filter=pikepdf.Name.DCTDecode)
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                              Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)),
                              Contents=pdf.make_stream(b"q 612 0 0 792 0 0 cm /Im0 Do Q"))
    pdf.pages.append(pikepdf.Page(page))
pdf.save(out)
