#ifndef REDLINE_QPDF_CROSS_REFERENCE_H
#define REDLINE_QPDF_CROSS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where one object of a document is, as qpdf's cross-reference has it (repaired the way qpdf repairs it).
typedef struct {
    int32_t number;
    int32_t generation;
    /// 1: at `offset` in the file; 2: object `index` of the object stream numbered `stream`.
    int32_t type;
    int32_t stream;
    int32_t index;
    int64_t offset;
} redline_xref_entry;

/// The cross-reference of a document held in memory, read by qpdf. Returns 0 and sets `*entries` (free it with
/// `redline_xref_free`) and `*count`, or nonzero when qpdf cannot read the document; never throws. `*encrypted` says
/// whether the file's strings are encrypted (objects in object streams are decrypted with their stream).
int redline_xref_read(const uint8_t *bytes, size_t length, const char *path, const char *password,
                      redline_xref_entry **entries, size_t *count, int *encrypted);

void redline_xref_free(redline_xref_entry *entries);

#ifdef __cplusplus
}
#endif

#endif
