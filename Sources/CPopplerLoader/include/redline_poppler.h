// poppler-glib, loaded when a page is first read rather than linked: its libraries (NSS, lcms, openjpeg,
// …) cost a command that never renders, and `redline --version`, 7 ms of a 22 ms start. Each function is the
// poppler function of the same name after `redline_`, with its exact signature (checked at compile time).
#ifndef REDLINE_POPPLER_H
#define REDLINE_POPPLER_H

#include <poppler/glib/poppler.h>

/// Why poppler-glib could not be loaded, or NULL when it is (or has not been tried yet).
const char *redline_poppler_load_failure(void);

PopplerDocument *redline_poppler_document_new_from_bytes(GBytes *bytes, const char *password, GError **error);
PopplerDocument *redline_poppler_document_new_from_fd(int fd, const char *password, GError **error);
int redline_poppler_document_get_n_pages(PopplerDocument *document);
PopplerPage *redline_poppler_document_get_page(PopplerDocument *document, int index);
PopplerDest *redline_poppler_document_find_dest(PopplerDocument *document, const gchar *link_name);
void redline_poppler_dest_free(PopplerDest *dest);
void redline_poppler_action_free(PopplerAction *action);
void redline_poppler_page_get_size(PopplerPage *page, double *width, double *height);
void redline_poppler_page_render(PopplerPage *page, cairo_t *cairo);
char *redline_poppler_page_get_text(PopplerPage *page);
gboolean redline_poppler_page_get_text_layout(PopplerPage *page, PopplerRectangle **rectangles, guint *n_rectangles);
GList *redline_poppler_page_get_text_attributes(PopplerPage *page);
void redline_poppler_page_free_text_attributes(GList *list);
GList *redline_poppler_page_get_link_mapping(PopplerPage *page);
void redline_poppler_page_free_link_mapping(GList *list);
GList *redline_poppler_page_find_text_with_options(PopplerPage *page, const char *text, PopplerFindFlags options);
void redline_poppler_rectangle_free(PopplerRectangle *rectangle);
gboolean redline_poppler_rectangle_find_get_match_continued(const PopplerRectangle *rectangle);
PopplerIndexIter *redline_poppler_index_iter_new(PopplerDocument *document);
PopplerIndexIter *redline_poppler_index_iter_get_child(PopplerIndexIter *parent);
gboolean redline_poppler_index_iter_is_open(PopplerIndexIter *iter);
PopplerAction *redline_poppler_index_iter_get_action(PopplerIndexIter *iter);
gboolean redline_poppler_index_iter_next(PopplerIndexIter *iter);
void redline_poppler_index_iter_free(PopplerIndexIter *iter);

#endif
