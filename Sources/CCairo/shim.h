// Cairo's declarations only: signalpath does not link libcairo but opens it on first use
// (Sources/SignalPathKit/Rendering/CairoSurface.swift). Each function it calls gets a pointer type
// here, taken from the header's own declaration, so the symbols dlsym returns are called with
// the exact C signatures.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>

#define SP_CAIRO_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_CAIRO_FN(cairo_image_surface_create)
SP_CAIRO_FN(cairo_image_surface_create_for_data)
SP_CAIRO_FN(cairo_image_surface_create_from_png_stream)
SP_CAIRO_FN(cairo_image_surface_get_data)
SP_CAIRO_FN(cairo_image_surface_get_width)
SP_CAIRO_FN(cairo_image_surface_get_height)
SP_CAIRO_FN(cairo_image_surface_get_stride)
SP_CAIRO_FN(cairo_format_stride_for_width)
SP_CAIRO_FN(cairo_svg_surface_create_for_stream)
SP_CAIRO_FN(cairo_pdf_surface_create_for_stream)
SP_CAIRO_FN(cairo_surface_flush)
SP_CAIRO_FN(cairo_surface_finish)
SP_CAIRO_FN(cairo_surface_destroy)
SP_CAIRO_FN(cairo_surface_status)
SP_CAIRO_FN(cairo_create)
SP_CAIRO_FN(cairo_destroy)
SP_CAIRO_FN(cairo_status)
SP_CAIRO_FN(cairo_status_to_string)
SP_CAIRO_FN(cairo_save)
SP_CAIRO_FN(cairo_restore)
SP_CAIRO_FN(cairo_scale)
SP_CAIRO_FN(cairo_translate)
SP_CAIRO_FN(cairo_rotate)
SP_CAIRO_FN(cairo_set_source_rgba)
SP_CAIRO_FN(cairo_set_source_surface)
SP_CAIRO_FN(cairo_get_source)
SP_CAIRO_FN(cairo_pattern_set_filter)
SP_CAIRO_FN(cairo_set_line_width)
SP_CAIRO_FN(cairo_set_line_join)
SP_CAIRO_FN(cairo_set_line_cap)
SP_CAIRO_FN(cairo_set_dash)
SP_CAIRO_FN(cairo_new_path)
SP_CAIRO_FN(cairo_move_to)
SP_CAIRO_FN(cairo_line_to)
SP_CAIRO_FN(cairo_close_path)
SP_CAIRO_FN(cairo_rectangle)
SP_CAIRO_FN(cairo_stroke)
SP_CAIRO_FN(cairo_fill)
SP_CAIRO_FN(cairo_clip)
SP_CAIRO_FN(cairo_paint)
SP_CAIRO_FN(cairo_select_font_face)
SP_CAIRO_FN(cairo_set_font_size)
SP_CAIRO_FN(cairo_text_extents)
SP_CAIRO_FN(cairo_show_text)
