// qpdf's C API has no getter for the cross-reference; its C++ API does (QPDF::getXRefTable). This is the only C++
// in Redline: one call, every exception caught, plain C out.
#define POINTERHOLDER_TRANSITION 4
#include "QPDFCrossReference.h"

#include <qpdf/QPDF.hh>
#include <cstdlib>
#include <new>

extern "C" int redline_xref_read(const uint8_t *bytes, size_t length, const char *path, const char *password,
                                 redline_xref_entry **entries, size_t *count, int *encrypted) {
    *entries = nullptr;
    *count = 0;
    *encrypted = 0;
    try {
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        if (bytes != nullptr) {
            pdf.processMemoryFile("document", reinterpret_cast<const char *>(bytes), length, password);
        } else {
            pdf.processFile(path, password);
        }
        *encrypted = pdf.isEncrypted() ? 1 : 0;
        auto table = pdf.getXRefTable();
        auto *out = static_cast<redline_xref_entry *>(std::malloc(sizeof(redline_xref_entry) * (table.size() + 1)));
        if (out == nullptr) return 1;
        size_t made = 0;
        for (auto const &[objectGeneration, entry] : table) {
            redline_xref_entry row{objectGeneration.getObj(), objectGeneration.getGen(), entry.getType(), 0, 0, 0};
            if (row.type == 1) {
                row.offset = entry.getOffset();
            } else if (row.type == 2) {
                row.stream = entry.getObjStreamNumber();
                row.index = entry.getObjStreamIndex();
            } else {
                continue;
            }
            out[made++] = row;
        }
        *entries = out;
        *count = made;
        return 0;
    } catch (...) {
        return 1;
    }
}

extern "C" void redline_xref_free(redline_xref_entry *entries) { std::free(entries); }
