// poppler-glib's declarations, by their path under the system's include directory: its pkg-config flags would
// link the library, which Redline loads only when a page is first read (CPopplerLoader). glib's and cairo's
// include paths come from their own pkg-config packages (CGObject, this module's).
#include <poppler/glib/poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
// FreeType through cairo: the markup face is loaded from its file, not looked up through fontconfig (MarkupFont).
#include <cairo-ft.h>
#include <malloc.h>
