#!/usr/bin/env python3
"""Reads a PDF's XMP metadata with pikepdf's own XMP support (not Redline's code) and prints JSON:
every property pikepdf sees (name -> value as text), and the bookmark properties' structure: the
apple-preview items (PageIndex, UUID) in order, and the pspdf JSON.

usage: xmp_probe.py FILE.pdf"""
import json
import sys

import pikepdf

PREVIEW = "http://ns.apple.com/Preview/1.0/"
PSPDF = "http://pspdfkit.com/pdf/xmp/1.0/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def main(path):
    pdf = pikepdf.open(path)
    result = {"hasMetadata": "/Metadata" in pdf.Root, "properties": {}, "preview": None, "pspdf": None, "pdfa": None}
    meta = pdf.open_metadata()
    for key in meta:
        result["properties"][key] = str(meta[key])
    result["pdfa"] = meta.pdfa_status or None
    result["recovered"] = bool(meta.recovered)
    tree = meta._get_rdf_root() if meta._xmp_doc is not None else None
    if tree is not None:
        items = []
        found = False
        for seq in tree.iter("{%s}Bookmarks" % PREVIEW):
            found = True
            for li in seq.iter("{%s}li" % RDF):
                items.append({
                    "PageIndex": li.findtext("{%s}PageIndex" % PREVIEW),
                    "UUID": li.findtext("{%s}UUID" % PREVIEW),
                    "parseType": li.get("{%s}parseType" % RDF),
                })
        if found:
            result["preview"] = items
        for element in tree.iter("{%s}Bookmarks" % PSPDF):
            result["pspdf"] = json.loads(element.text)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
