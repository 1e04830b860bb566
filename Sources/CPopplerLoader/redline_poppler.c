#include "redline_poppler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions Redline calls, as poppler-glib exports them. X(name) for each.
#define REDLINE_POPPLER_FUNCTIONS \
    X(poppler_document_new_from_bytes) X(poppler_document_new_from_fd) X(poppler_document_get_n_pages) \
    X(poppler_document_get_page) X(poppler_document_find_dest) X(poppler_dest_free) X(poppler_action_free) \
    X(poppler_page_get_size) X(poppler_page_render) X(poppler_page_get_text) X(poppler_page_get_text_layout) \
    X(poppler_page_get_text_attributes) X(poppler_page_free_text_attributes) X(poppler_page_get_link_mapping) \
    X(poppler_page_free_link_mapping) X(poppler_page_find_text_with_options) X(poppler_rectangle_free) \
    X(poppler_rectangle_find_get_match_continued) X(poppler_index_iter_new) X(poppler_index_iter_get_child) \
    X(poppler_index_iter_is_open) X(poppler_index_iter_get_action) X(poppler_index_iter_next) X(poppler_index_iter_free)

// `__typeof__` of the declaration is no reference to the symbol: nothing here makes the linker need poppler-glib.
static struct {
#define X(name) __typeof__(name) *name;
    REDLINE_POPPLER_FUNCTIONS
#undef X
} loaded;

// Each wrapper has the signature of the function it stands for.
#define X(name) _Static_assert(__builtin_types_compatible_p(__typeof__(&redline_##name), __typeof__(&name)), #name);
REDLINE_POPPLER_FUNCTIONS
#undef X

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    // The runtime's name first; the development link, which the build needed, if the runtime's number differs.
    static const char *const names[] = {"libpoppler-glib.so.8", "libpoppler-glib.so"};
    void *library = NULL;
    // The runtime's reason is the one said: the development link is only a second try.
    char first[400] = "not found";
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_GLOBAL);
        const char *reason = library == NULL ? dlerror() : NULL;
        if (index == 0 && reason != NULL) snprintf(first, sizeof first, "%s", reason);
    }
    if (library == NULL) {
        snprintf(failure, sizeof failure, "poppler-glib could not be loaded: %s (install libpoppler-glib8)", first);
        return;
    }
#define X(name) \
    loaded.name = (__typeof__(name) *)dlsym(library, #name); \
    if (loaded.name == NULL) { \
        snprintf(failure, sizeof failure, "poppler-glib has no %s: Redline needs poppler 22.02 or later", #name); \
        return; \
    }
    REDLINE_POPPLER_FUNCTIONS
#undef X
}

static int ready(void) {
    pthread_once(&once, load);
    return failure[0] == 0;
}

const char *redline_poppler_load_failure(void) {
    return ready() ? NULL : failure;
}

// Opening a document is where loading is first needed: a failure is said as an error there. Everything else is
// only ever called with a document or page those calls made.
static PopplerDocument *refused(GError **error) {
    g_set_error_literal(error, g_quark_from_static_string("redline-poppler"), 1, failure);
    return NULL;
}

PopplerDocument *redline_poppler_document_new_from_bytes(GBytes *bytes, const char *password, GError **error) {
    return ready() ? loaded.poppler_document_new_from_bytes(bytes, password, error) : refused(error);
}

PopplerDocument *redline_poppler_document_new_from_fd(int fd, const char *password, GError **error) {
    return ready() ? loaded.poppler_document_new_from_fd(fd, password, error) : refused(error);
}

#define FORWARD(type, name, parameters, arguments) \
    type redline_##name parameters { ready(); return loaded.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    void redline_##name parameters { ready(); loaded.name arguments; }

FORWARD(int, poppler_document_get_n_pages, (PopplerDocument *document), (document))
FORWARD(PopplerPage *, poppler_document_get_page, (PopplerDocument *document, int index), (document, index))
FORWARD(PopplerDest *, poppler_document_find_dest, (PopplerDocument *document, const gchar *link_name), (document, link_name))
FORWARD_VOID(poppler_dest_free, (PopplerDest *dest), (dest))
FORWARD_VOID(poppler_action_free, (PopplerAction *action), (action))
FORWARD_VOID(poppler_page_get_size, (PopplerPage *page, double *width, double *height), (page, width, height))
FORWARD_VOID(poppler_page_render, (PopplerPage *page, cairo_t *cairo), (page, cairo))
FORWARD(char *, poppler_page_get_text, (PopplerPage *page), (page))
FORWARD(gboolean, poppler_page_get_text_layout, (PopplerPage *page, PopplerRectangle **rectangles, guint *n_rectangles),
        (page, rectangles, n_rectangles))
FORWARD(GList *, poppler_page_get_text_attributes, (PopplerPage *page), (page))
FORWARD_VOID(poppler_page_free_text_attributes, (GList *list), (list))
FORWARD(GList *, poppler_page_get_link_mapping, (PopplerPage *page), (page))
FORWARD_VOID(poppler_page_free_link_mapping, (GList *list), (list))
FORWARD(GList *, poppler_page_find_text_with_options, (PopplerPage *page, const char *text, PopplerFindFlags options),
        (page, text, options))
FORWARD_VOID(poppler_rectangle_free, (PopplerRectangle *rectangle), (rectangle))
FORWARD(gboolean, poppler_rectangle_find_get_match_continued, (const PopplerRectangle *rectangle), (rectangle))
FORWARD(PopplerIndexIter *, poppler_index_iter_new, (PopplerDocument *document), (document))
FORWARD(PopplerIndexIter *, poppler_index_iter_get_child, (PopplerIndexIter *parent), (parent))
FORWARD(gboolean, poppler_index_iter_is_open, (PopplerIndexIter *iter), (iter))
FORWARD(PopplerAction *, poppler_index_iter_get_action, (PopplerIndexIter *iter), (iter))
FORWARD(gboolean, poppler_index_iter_next, (PopplerIndexIter *iter), (iter))
FORWARD_VOID(poppler_index_iter_free, (PopplerIndexIter *iter), (iter))
