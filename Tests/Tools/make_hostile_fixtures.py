#!/usr/bin/env python3
"""Writes Tests/Fixtures/hostile/: one small PDF per hostile or damaged case that once crashed, hung,
leaked or lost data in Redline. Each case says below what it reproduces; Tests/Fixtures/hostile/README.md
lists them. The output is deterministic, so running this again changes nothing unless a case changes.

usage: make_hostile_fixtures.py [FOLDER]   (default: Tests/Fixtures/hostile beside this script)"""
import io
import os
import sys

import pikepdf

FOLDER = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Fixtures", "hostile")
CASES = {}


def case(name, why):
    def register(function):
        CASES[name] = (why, function)
        return function
    return register


def write_classic(objects, trailer=b"", root=1, xref=True):
    """A PDF with a classic cross-reference table: `objects` is [(number, body bytes)]."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    size = max(offsets) + 1
    start = len(out)
    if xref:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        for number in range(1, size):
            out += (b"%010d 00000 n \n" % offsets[number]) if number in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (size, root, trailer, start)
    return bytes(out)


def stream(data, extra=b""):
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


PAGE_TEXT = [b"BT /F1 24 Tf 72 700 Td (Page one: review copy) Tj ET", b"BT /F1 24 Tf 72 700 Td (Page two: appendix) Tj ET"]


def base_objects(page_extra=b"", annots=b"[10 0 R]", pages_extra=b"/Count 2"):
    """Two pages with text, an outline of two entries, a link on page 1 to page 2 and a comment on page 2:
    what a repair must keep."""
    return [
        (1, b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R >>"),
        (2, b"<< /Type /Pages /Kids [3 0 R 4 0 R] %s >>" % pages_extra),
        (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
            b"/Resources << /Font << /F1 11 0 R >> >> /Annots [12 0 R] %s>>" % page_extra),
        (4, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R "
            b"/Resources << /Font << /F1 11 0 R >> >> /Annots %s >>" % annots),
        (5, stream(PAGE_TEXT[0])),
        (6, stream(PAGE_TEXT[1])),
        (7, b"<< /Type /Outlines /First 8 0 R /Last 9 0 R /Count 2 >>"),
        (8, b"<< /Title (Introduction) /Parent 7 0 R /Next 9 0 R /Dest [3 0 R /Fit] >>"),
        (9, b"<< /Title (Appendix) /Parent 7 0 R /Prev 8 0 R /Dest [4 0 R /Fit] >>"),
        (10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents (Please check the totals) "
             b"/T (Alice) /NM (comment-1) /M (D:20240105101500Z) /F 4 >>"),
        (11, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        (12, b"<< /Type /Annot /Subtype /Link /Rect [72 690 300 720] /Border [0 0 0] /Dest [4 0 R /Fit] >>"),
    ]


def replace(objects, number, body):
    return [(n, body if n == number else b) for n, b in objects]


def with_metadata(packet, objects=None):
    objects = objects or base_objects()
    objects = replace(objects, 1, b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /Metadata 13 0 R >>")
    return write_classic(objects + [(13, stream(packet, b"/Type /Metadata /Subtype /XML "))])


def xmp(body, prolog=b""):
    return (b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' + prolog +
            b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            b'xmlns:apple-preview="http://ns.apple.com/Preview/1.0/" xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/">'
            + body + b'</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>')


BOOKMARK = (b'<apple-preview:Bookmarks><rdf:Seq><rdf:li rdf:parseType="Resource"><apple-preview:PageIndex>1'
            b'</apple-preview:PageIndex><apple-preview:UUID>6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D</apple-preview:UUID>'
            b'</rdf:li></rdf:Seq></apple-preview:Bookmarks>')


def compressed(data):
    """The same document rewritten with object streams and an xref stream, compressed."""
    pdf = pikepdf.open(io.BytesIO(data))
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=True,
             deterministic_id=True)
    return out.getvalue()


# Numbers out of range: each once trapped the Swift runtime and printed a backtrace.

@case("rotate-1e19.pdf", "/Rotate 1e19 on the page: a real far beyond any integer")
def rotate_exponent():
    return write_classic(base_objects(page_extra=b"/Rotate 1e19 "))


@case("rotate-real-1e19.pdf", "/Rotate 10000000000000000000.0: the same value written as a real qpdf reads")
def rotate_real():
    return write_classic(base_objects(page_extra=b"/Rotate 10000000000000000000.0 "))


@case("rotate-not-a-multiple.pdf", "/Rotate 45.5: neither integral nor a multiple of 90")
def rotate_fraction():
    return write_classic(base_objects(page_extra=b"/Rotate 45.5 "))


@case("rotate-int64-max.pdf", "/Rotate 9223372036854775807: an integer that fits 64 bits but not a rotation")
def rotate_int64():
    return write_classic(base_objects(page_extra=b"/Rotate 9223372036854775807 "))


@case("rotate-huge-digits.pdf", "/Rotate with 40 digits: past every integer type")
def rotate_digits():
    return write_classic(base_objects(page_extra=b"/Rotate " + b"9" * 40 + b" "))


@case("annotation-flags-1e19.pdf", "an annotation's /F 1e19")
def flags_exponent():
    objects = replace(base_objects(), 10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents (Flags) "
                                          b"/T (Alice) /F 1e19 >>")
    return write_classic(objects)


@case("annotation-flags-real-1e19.pdf", "an annotation's /F 10000000000000000000.0")
def flags_real():
    objects = replace(base_objects(), 10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents (Flags) "
                                          b"/T (Alice) /F 10000000000000000000.0 >>")
    return write_classic(objects)


@case("annotation-flags-negative-huge.pdf", "an annotation's /F -99999999999999999999")
def flags_negative():
    objects = replace(base_objects(), 10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents (Flags) "
                                          b"/T (Alice) /F -99999999999999999999 >>")
    return write_classic(objects)


@case("annotation-rect-400-digits.pdf", "an annotation /Rect holding a 400-digit number")
def rect_digits():
    objects = replace(base_objects(), 10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 " + b"9" * 400
                      + b" 620] /Contents (Wide) /T (Alice) /F 4 >>")
    return write_classic(objects)


@case("annotation-rect-400-digit-real.pdf", "an annotation /Rect holding a 400-digit real (infinite as a double)")
def rect_real():
    objects = replace(base_objects(), 10, b"<< /Type /Annot /Subtype /Text /Rect [100 600 " + b"9" * 400
                      + b".5 620] /Contents (Wide) /T (Alice) /F 4 >>")
    return write_classic(objects)


@case("mediabox-1e20.pdf", "a /MediaBox [0 0 1e20 792] (crashed apply in the number formatter)")
def mediabox_exponent():
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]", b"[0 0 1e20 792]")))


@case("mediabox-20-digits.pdf", "a /MediaBox [0 0 100000000000000000000 792]: 1e20 written out")
def mediabox_digits():
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]",
                                                                                b"[0 0 100000000000000000000 792]")))


@case("mediabox-real-1e20.pdf", "a /MediaBox [0 0 100000000000000000000.0 792]: a real qpdf reads as 1e20")
def mediabox_real():
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]",
                                                                                b"[0 0 100000000000000000000.0 792]")))


@case("mediabox-negative-huge.pdf", "a /MediaBox [-1e30 -1e30 1e30 1e30] written as reals")
def mediabox_negative():
    big = b"1" + b"0" * 30 + b".0"
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]",
                                                                                b"[-" + big + b" -" + big + b" " + big + b" " + big + b"]")))


@case("mediabox-past-32-bits.pdf", "a /MediaBox [0 0 2147483648 792]: an integer past 32 bits, which poppler reads as a "
      "real (the editor once asked for terabytes of pixels)")
def mediabox_past_32_bits():
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]", b"[0 0 2147483648 792]")))


@case("mediabox-tiny.pdf", "a /MediaBox [0 0 0.0001 0.0001]: a page smaller than a pixel")
def mediabox_tiny():
    return write_classic(replace(base_objects(), 3, base_objects()[2][1].replace(b"[0 0 612 792]", b"[0 0 0.0001 0.0001]")))


# XMP that must never be trusted.

@case("xmp-external-entity-file.pdf", "XMP declaring <!ENTITY x SYSTEM \"file:///etc/passwd\"> and using it: "
      "the file must not be read into a saved copy")
def xmp_file_entity():
    prolog = b'<!DOCTYPE x:xmpmeta [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    return with_metadata(xmp(b"<dc:description>&secret;</dc:description>" + BOOKMARK, prolog))


@case("xmp-external-entity-http.pdf", "XMP with an http:// external entity on 127.0.0.1:47613: opening must make "
      "no request (tests rewrite the port to one they listen on)")
def xmp_http_entity():
    prolog = b'<!DOCTYPE x:xmpmeta [<!ENTITY remote SYSTEM "http://127.0.0.1:47613/redline-probe">]>\n'
    return with_metadata(xmp(b"<dc:description>&remote;</dc:description>" + BOOKMARK, prolog))


@case("xmp-entity-expansion.pdf", "XMP with nested entities (\"billion laughs\"): must not take seconds or megabytes")
def xmp_laughs():
    entities = [b'<!ENTITY l0 "lol">']
    for level in range(1, 10):
        entities.append(b'<!ENTITY l%d "' % level + b"&l%d;" % (level - 1) * 10 + b'">')
    prolog = b"<!DOCTYPE x:xmpmeta [" + b"".join(entities) + b"]>\n"
    return with_metadata(xmp(b"<dc:description>&l9;</dc:description>" + BOOKMARK, prolog))


@case("xmp-invalid-utf8-element-name.pdf", "XMP with a byte 0xFF inside an element name")
def xmp_bad_name():
    return with_metadata(xmp(b"<dc:ti\xfftle>Title</dc:ti\xfftle>" + BOOKMARK))


@case("xmp-invalid-utf8-processing-instruction.pdf", "XMP with invalid UTF-8 inside a processing instruction")
def xmp_bad_pi():
    return with_metadata(xmp(b"<?redline \xc3\x28\xff?>" + BOOKMARK))


@case("xmp-invalid-utf8-attribute.pdf", "XMP with invalid UTF-8 inside an attribute value")
def xmp_bad_attribute():
    return with_metadata(xmp(b'<dc:title xml:lang="x-\xe2\x28\xa1">Title</dc:title>' + BOOKMARK))


@case("xmp-utf16.pdf", "an XMP packet in UTF-16 with a byte order mark: readable, bookmarks found")
def xmp_utf16():
    packet = xmp(BOOKMARK).decode("utf-8").replace("\ufeff", "")
    return with_metadata("\ufeff".encode("utf-16-be") + packet.encode("utf-16-be"))


# Counts that once took minutes.

def many_annotations(references, *, identical_objects):
    """Page 2 carries `references` annotations: one object referenced that often, or that many identical objects."""
    annotation = b"<< /Type /Annot /Subtype /Square /Rect [100 100 200 200] /Contents (Same) /T (Bot) /F 4 >>"
    objects = base_objects()
    if identical_objects:
        extra = [(100 + index, annotation) for index in range(references)]
        annots = b"[" + b" ".join(b"%d 0 R" % (100 + index) for index in range(references)) + b"]"
    else:
        extra = [(100, annotation)]
        annots = b"[" + b" 100 0 R" * references + b"]"
    objects = replace(objects, 4, objects[3][1].replace(b"/Annots [10 0 R]", b"/Annots 99 0 R"))
    return compressed(write_classic(objects + [(99, annots)] + extra))


@case("annotation-referenced-20000-times.pdf", "page 2 lists one annotation object 20,000 times (took 72 s to list)")
def referenced_often():
    return many_annotations(20000, identical_objects=False)


@case("annotations-20000-identical.pdf", "20,000 distinct but identical annotations without /NM (took 91 s)")
def identical():
    return many_annotations(20000, identical_objects=True)


@case("reply-chain-10000.pdf", "a chain of 10,000 replies, each answering the one before (took 77 s as text)")
def reply_chain():
    objects = base_objects()
    count = 10000
    replies = []
    for index in range(count):
        parent = 10 if index == 0 else 100 + index - 1
        replies.append((100 + index, b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /IRT %d 0 R /RT /R "
                                     b"/Contents (Reply %d) /T (Bob) /M (D:20240106%02d%02d%02dZ) /F 28 >>"
                        % (parent, index, index // 3600 % 24, index // 60 % 60, index % 60)))
    annots = b"[10 0 R " + b" ".join(b"%d 0 R" % number for number, _ in replies) + b"]"
    objects = replace(objects, 4, objects[3][1].replace(b"/Annots [10 0 R]", b"/Annots 99 0 R"))
    return compressed(write_classic(objects + [(99, annots)] + replies))


# Text that must not reach a terminal as control sequences.

def utf16(text):
    return b"<" + ("\ufeff" + text).encode("utf-16-be").hex().upper().encode() + b">"


@case("escapes-in-text-fields.pdf", "ESC and C1 (U+009B) control sequences in /Contents, /T and /NM, and in a "
      "bookmark's name: they set a pane title, clear the screen and move the cursor if printed raw")
def escapes():
    objects = replace(base_objects(), 10,
                      b"<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents "
                      + utf16("Totals \x1b]2;owned\x07 wrong \x1b[2J\x1b[31mred\u009b1;1H here") + b" /T "
                      + utf16("Mallory\x1b[8m") + b" /NM " + utf16("id-\x1b[5m\u009b2J") + b" /F 4 >>")
    bookmark = (b'<pspdf:Bookmarks>[{"action":{"actionType":"Goto","pageIndex":1},"name":"Chapter \\u001b]2;owned'
                b'\\u0007 \\u009b2J end","uuid":"6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D"}]</pspdf:Bookmarks>')
    return with_metadata(xmp(BOOKMARK + bookmark), objects)


# Structure.

@case("direct-object-annotation.pdf", "page 2's comment is a direct object inside /Annots: a reply must point at "
      "the very annotation, not a copy of it")
def direct_annotation():
    objects = base_objects()
    direct = objects[9][1]
    objects = replace(objects, 4, objects[3][1].replace(b"/Annots [10 0 R]", b"/Annots [" + direct + b"]"))
    return write_classic([entry for entry in objects if entry[0] != 10] + [(10, b"null")])


@case("id-200-bytes.pdf", "a trailer /ID of 200 bytes: the sidecar bookmark file name must not grow with it")
def long_id():
    identifier = b"<" + b"AB" * 200 + b">"
    return write_classic(base_objects(), trailer=b"/ID [" + identifier + b" " + identifier + b"] ")


@case("id-empty-and-doctype.pdf", "a trailer /ID [<> <>] and XMP that is refused (a DOCTYPE): new bookmarks go to the "
      "sidecar file, which must be found again from the saved copy")
def empty_id():
    prolog = b'<!DOCTYPE x:xmpmeta [<!ENTITY x "y">]>\n'
    data = with_metadata(xmp(b"<dc:description>&x;</dc:description>", prolog))
    return data.replace(b"/Size 14 /Root 1 0 R ", b"/Size 14 /Root 1 0 R /ID [<> <>] ")


# Damaged files that can be repaired: poppler or a newer qpdf opens them, Debian 12's qpdf 11.3 does not.

@case("damaged-deep-nesting-in-trailer.pdf", "the xref table is gone and the trailer holds an array nested 600 "
      "deep: qpdf 11.3 cannot read that trailer while reconstructing")
def damaged_deep_trailer():
    data = write_classic(base_objects(), trailer=b"/Junk " + b"[" * 600 + b"]" * 600 + b" ", xref=False)
    return data.replace(b"startxref\n", b"startxref\n9").replace(b"%%EOF", b"%%EOF")


@case("damaged-xref-stream.pdf", "objects in object streams and a cross-reference stream whose data is corrupt: "
      "no trailer keyword to reconstruct from")
def damaged_xref_stream():
    data = bytearray(compressed(write_classic(base_objects())))
    start = data.find(b"stream", data.rfind(b"/Type /XRef")) + len(b"stream\n")
    for index in range(start, start + 16):
        data[index] ^= 0x5A
    return bytes(data)


@case("damaged-cyclic-outline-null-count.pdf", "an outline whose entries point at each other in a loop, and a page "
      "tree whose /Count is null (poppler then sees no pages)")
def damaged_cycle():
    objects = base_objects(pages_extra=b"/Count null")
    objects = replace(objects, 9, b"<< /Title (Appendix) /Parent 7 0 R /Prev 8 0 R /Next 8 0 R /Dest [4 0 R /Fit] >>")
    return write_classic(objects)


@case("damaged-count-null-no-size-shifted.pdf", "a page tree /Count null, an outline whose /Next loops, a trailer without "
      "/Size and every offset of the cross-reference table wrong: qpdf 11 refused saving it (\"operation for dictionary "
      "attempted on object of type null\") and wrote copies without /Size")
def damaged_no_size():
    objects = base_objects(pages_extra=b"/Count null")
    objects = replace(objects, 9, b"<< /Title (Appendix) /Parent 7 0 R /Prev 8 0 R /Next 8 0 R /Dest [4 0 R /Fit] >>")
    data = write_classic(objects)
    data = data.replace(b"trailer\n<< /Size 13 ", b"trailer\n<< ")
    first = data.find(b"1 0 obj")
    return data[:first] + b"% a comment that moves every object\n" * 3 + data[first:]


@case("damaged-nulls-in-trees.pdf", "null where the trees hold dictionaries: a null kid in the page tree, a null in /Annots, "
      "/Names and /Dests null, an outline with /Last and /Count null, a page without /Resources")
def damaged_nulls():
    objects = base_objects(annots=b"[null 10 0 R]", pages_extra=b"/Count null")
    objects = replace(objects, 1, b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /Names null /Dests null >>")
    objects = replace(objects, 2, b"<< /Type /Pages /Kids [3 0 R null 4 0 R] /Count null >>")
    objects = replace(objects, 7, b"<< /Type /Outlines /First 8 0 R /Last null /Count null >>")
    return write_classic(objects)


@case("damaged-no-pages.pdf", "a page tree with no pages at all: refused in words, \"the page tree is damaged: no pages found\"")
def damaged_no_pages():
    return write_classic(replace(base_objects(), 2, b"<< /Type /Pages /Kids [] /Count 0 >>"))


@case("damaged-no-header.pdf", "the `%PDF-` line is gone, and with it every offset of the cross-reference table")
def damaged_no_header():
    data = write_classic(base_objects())
    return data[data.find(b"1 0 obj"):]


@case("damaged-truncated.pdf", "the file ends in the middle of the outline: no cross-reference table, no trailer")
def damaged_truncated():
    data = write_classic(base_objects())
    return data[:data.find(b"9 0 obj") + 30]


@case("unreadable-garbage.pdf", "a PDF header and nothing a reader can use: must fail with one line and exit 2")
def garbage():
    return b"%PDF-1.7\n" + bytes((index * 73 + 41) % 251 for index in range(2000)) + b"\n%%EOF\n"


# Round two: what mutating real files found.
@case("object-number-2147483647.pdf", "the catalog refers to object 2147483647, which qpdf --check calls clean: qpdf can number no "
      "new object past it, and every save aborted with its uncaught std::range_error")
def object_number_max():
    return write_classic(replace(base_objects(), 1, b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /Extra 2147483647 0 R >>"))


@case("object-number-past-32-bits.pdf", "the catalog refers to object 99999999999: read as 2147483647, the same abort")
def object_number_past_32_bits():
    return write_classic(replace(base_objects(), 1, b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /Extra 99999999999 0 R >>"))


@case("stream-length-int64-max-no-xref.pdf", "a content stream's /Length 9223372036854775807 in a file without a cross-reference "
      "table: rebuilding it overflowed position + length")
def stream_length_overflow():
    objects = replace(base_objects(), 5, b"<< /Length 9223372036854775807 >>\nstream\n" + PAGE_TEXT[0] + b"\nendstream")
    return write_classic(objects, xref=False)


@case("page-tree-a-million-pages.pdf", "a page tree of a million pages: 1,000 nodes each listing one page object 1,000 times "
      "(qpdf --show-npages answers; Redline kept every page's handle and ran out of memory)")
def million_pages():
    objects = base_objects()
    nodes = [(13 + n, b"<< /Type /Pages /Parent 2 0 R /Kids [" + b"3 0 R " * 1000 + b"] /Count 1000 >>") for n in range(1000)]
    objects = replace(objects, 2, b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % n for n, _ in nodes) + b"] /Count 1000000 >>")
    objects = replace(objects, 3, b"<< /Type /Page /Parent 13 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                                  b"/Resources << /Font << /F1 11 0 R >> >> >>")
    return write_with_object_stream(objects, nodes)


def write_with_object_stream(objects, packed):
    """A PDF whose `packed` objects sit in one Flate-compressed object stream, with a cross-reference stream: a
    million repeated references in a few kilobytes. qpdf and pikepdf would expand the repeats on saving."""
    import zlib
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    container = max(n for n, _ in objects + packed) + 1
    header, bodies = b"", b""
    for number, body in packed:
        header += b"%d %d " % (number, len(bodies))
        bodies += body + b"\n"
    data = zlib.compress(header + bodies, 9)
    offsets[container] = len(out)
    out += (b"%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
            % (container, len(packed), len(header), len(data)) + data + b"\nendstream\nendobj\n")
    xref = container + 1
    offsets[xref] = len(out)
    rows = b""
    index_of = {number: index for index, (number, _) in enumerate(packed)}
    for number in range(xref + 1):
        if number in offsets:
            rows += bytes([1]) + offsets[number].to_bytes(4, "big") + bytes(2)
        elif number in index_of:
            rows += bytes([2]) + container.to_bytes(4, "big") + index_of[number].to_bytes(2, "big")
        else:
            rows += bytes([0]) + bytes(4) + b"\xff\xff"
    out += (b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n"
            % (xref, xref + 1, len(rows)) + rows + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % offsets[xref])
    return bytes(out)


@case("forms-drawing-each-other-2-to-the-29.pdf", "29 form XObjects, each drawing the next twice: 2^29 draws, so reading the "
      "page's words or drawing it never ends (the editor never showed a frame and ignored q and SIGTERM)")
def form_bomb():
    objects = base_objects()
    forms = []
    depth = 29
    for level in range(depth):
        number = 13 + level
        inner = b"/X%d Do /X%d Do" % (level + 1, level + 1) if level + 1 < depth else b"BT /F1 1 Tf 0 0 Td (x) Tj ET"
        resources = b"/Resources << /XObject << /X%d %d 0 R >> /Font << /F1 11 0 R >> >>" % (level + 1, number + 1) \
            if level + 1 < depth else b"/Resources << /Font << /F1 11 0 R >> >>"
        forms.append((number, stream(inner, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + resources + b" ")))
    objects = replace(objects, 3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                                  b"/Resources << /Font << /F1 11 0 R >> /XObject << /X0 13 0 R >> >> /Annots [12 0 R] >>")
    objects = replace(objects, 5, stream(PAGE_TEXT[0] + b" /X0 Do"))
    return write_classic(objects + forms)


@case("tiling-pattern-xstep-0.0001.pdf", "a page filled with a tiling pattern whose /XStep and /YStep are 0.0001: billions of "
      "tiles, so drawing it never ends (closing the editor waited on the endless render)")
def tiling_bomb():
    objects = base_objects()
    tile = stream(b"0 0 1 1 re f", b"/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 1 1] "
                  b"/XStep 0.0001 /YStep 0.0001 /Resources << >> ")
    objects = replace(objects, 3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                                  b"/Resources << /Font << /F1 11 0 R >> /Pattern << /P0 13 0 R >> >> /Annots [12 0 R] >>")
    objects = replace(objects, 5, stream(b"/Pattern cs /P0 scn 0 0 612 792 re f " + PAGE_TEXT[0]))
    return write_classic(objects + [(13, tile)])


@case("rich-text-odd-names.pdf", "notes whose rich text (/RC) has an attribute named 8a, an undeclared prefix foo:bar, xml: "
      "rebound and one attribute under two prefixes: xfdf export wrote XFDF a namespace-aware XML parser refuses")
def rich_text_odd_names():
    bodies = [b'<body xmlns="http://www.w3.org/1999/xhtml"><p 8a="x">one</p></body>',
              b'<body xmlns="http://www.w3.org/1999/xhtml"><p foo:bar="x">two</p></body>',
              b'<body xmlns="http://www.w3.org/1999/xhtml" xmlns:xml="urn:other"><p>three</p></body>',
              b'<body xmlns="http://www.w3.org/1999/xhtml" xmlns:a="urn:u" xmlns:b="urn:u"><p a:x="1" b:x="2">four</p></body>',
              b'<body xmlns="http://www.w3.org/1999/xhtml" xmlns:a="urn:u"><p a:x="1">fine</p></body>']
    objects = base_objects(annots=b"[" + b" ".join(b"%d 0 R" % (13 + n) for n in range(len(bodies))) + b"]")
    notes = []
    for index, body in enumerate(bodies):
        escaped = body.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        notes.append((13 + index, b"<< /Type /Annot /Subtype /Text /Rect [100 %d 120 %d] /Contents (note %d) /NM (rich-%d) "
                      b"/T (Alice) /F 4 /RC (%s) >>" % (600 - 30 * index, 620 - 30 * index, index, index, escaped)))
    return write_classic(objects + notes)


@case("root-missing.pdf", "the trailer's /Root names an object the file does not have: qpdf printed a line of its own "
      "(\"application did not handle error\") beside Redline's one")
def root_missing():
    return write_classic(base_objects(), root=99)


def main():
    os.makedirs(FOLDER, exist_ok=True)
    for name, (_, make) in CASES.items():
        with open(os.path.join(FOLDER, name), "wb") as out:
            out.write(make())
    with open(os.path.join(FOLDER, "README.md"), "w") as readme:
        readme.write("# Hostile and damaged fixtures\n\nWritten by `Tests/Tools/make_hostile_fixtures.py` (run it again to "
                     "rewrite them). Each file reproduces one case that once crashed, hung, leaked data or lost work; the "
                     "tests named in `HostileDocumentTests`, `DamagedFileTests` and the fuzzing harness open each one.\n\n"
                     "| file | case |\n|---|---|\n")
        for name, (why, _) in CASES.items():
            readme.write(f"| {name} | {why} |\n")


if __name__ == "__main__":
    main()
