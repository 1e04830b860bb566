#!/usr/bin/env python3
"""Writes Tests/Fixtures/banded-pages.pdf: two US Letter pages, each with a black vertical band at
x 100-112 pt and a black horizontal band 300-312 pt from the top. Scrolling tests follow the bands across
the screen: where they are tells which part of the page is in view.

usage: make_banded_fixture.py OUT.pdf   (needs pikepdf)"""
import sys

import pikepdf

pdf = pikepdf.new()
for _ in range(2):
    page = pdf.add_blank_page(page_size=(612, 792))
    page.obj.Contents = pdf.make_stream(b"0 g 100 0 12 792 re f 0 480 612 12 re f\n")
pdf.save(sys.argv[1], deterministic_id=True)
