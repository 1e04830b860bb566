#!/usr/bin/env python3
"""Writes a one-page document carrying MEGABYTES of incompressible image data, for saves that take long
enough to be interrupted.

usage: make_heavy_document.py OUT.pdf MEGABYTES"""
import random
import sys

import pikepdf

out, megabytes = sys.argv[1], int(sys.argv[2])
width = 1000
height = megabytes * 1024 * 1024 // (width * 3)
pixels = random.Random(7).randbytes(width * height * 3)
pdf = pikepdf.new()
image = pdf.make_stream(pixels, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=width, Height=height,
                        ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                          Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)),
                          Contents=pdf.make_stream(b"q 612 0 0 792 0 0 cm /Im0 Do Q"))
pdf.pages.append(pikepdf.Page(page))
pdf.save(out, compress_streams=False)
