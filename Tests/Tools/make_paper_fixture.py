#!/usr/bin/env python3
"""Writes Tests/Fixtures/white-and-black-pages.pdf: page 1 white paper with lines of black text, page 2 black
paper. The editor's cursor and colours are checked against both.

usage: make_paper_fixture.py OUT.pdf   (needs pikepdf)"""
import sys

import pikepdf

pdf = pikepdf.new()
font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                            BaseFont=pikepdf.Name.Helvetica))
lines = b"".join(b"BT /F1 14 Tf 72 %d Td (Reviewed text on white paper, line %d.) Tj ET\n" % (700 - 24 * i, i + 1)
                 for i in range(12))
for content in (lines, b"0 g 0 0 612 792 re f\n"):
    page = pdf.add_blank_page(page_size=(612, 792))
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.obj.Contents = pdf.make_stream(content)
pdf.save(sys.argv[1], deterministic_id=True)
