import CCairo

/// A chart file's format.
public enum ChartFormat: String, Sendable, CaseIterable {
    case png, svg, pdf
}

/// Draws chart primitives with Cairo into PNG, SVG or PDF bytes: the only Swift file that talks to
/// Cairo, and no Cairo pointer leaves it.
///
/// libcairo is not linked but opened with `dlopen` on first use. Linked, it and the libraries it
/// needs (pixman, fontconfig, freetype, libpng, xcb, xrender, …) would be loaded and relocated at
/// every start of every command (docs/DECISIONS.md#libraries-on-first-use). Opened here, only a
/// command that draws a chart pays, once. Each function is called through a pointer typed from its
/// declaration in Cairo's header (`Sources/CCairo/shim.h`), so a call cannot disagree with the C
/// signature.
public enum ChartRenderer {
    /// The chart drawn in `format`: PNG at `chart.pixelScale` pixels per point, SVG and PDF in points.
    public static func render(_ chart: Chart, as format: ChartFormat) throws(SignalPathError) -> [UInt8] {
        try render(chart.drawing(), width: chart.width, height: chart.height, scale: chart.pixelScale, as: format)
    }

    /// `primitives` drawn on a `width` × `height` point page.
    public static func render(_ primitives: [ChartPrimitive], width: Double, height: Double, scale: Double, as format: ChartFormat) throws(SignalPathError) -> [UInt8] {
        let cairo = try Cairo.library()
        let sink = ByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer?
        switch format {
        case .png:
            surface = cairo.imageSurfaceCreate(CAIRO_FORMAT_RGB24, Int32((width * scale).rounded()), Int32((height * scale).rounded()))
        case .svg:
            surface = cairo.svgSurfaceCreateForStream(writeBytes, closure, width, height)
        case .pdf:
            surface = cairo.pdfSurfaceCreateForStream(writeBytes, closure, width, height)
        }
        guard let surface, cairo.surfaceStatus(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo.surfaceDestroy(surface) }
            throw .unavailable(path: "chart", reason: "Cairo cannot make a \(format.rawValue.uppercased()) surface of \(width)×\(height)")
        }
        defer { cairo.surfaceDestroy(surface) }
        guard let context = cairo.create(surface) else { throw .unavailable(path: "chart", reason: "Cairo cannot draw") }
        if format == .png { cairo.scale(context, scale, scale) }
        for primitive in primitives { draw(primitive, cairo: cairo, context: context) }
        let status = cairo.status(context)
        cairo.destroy(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw Cairo.failure(cairo, status) }
        if format == .png {
            // Cairo draws, `PNGEncoder` compresses: Cairo's own PNG writer (libpng's defaults) was
            // 40–54 % of a batch of small spectrograms.
            cairo.surfaceFlush(surface)
            return try PNGEncoder.encode(pixels(of: surface, cairo: cairo))
        } else {
            // Finishing writes the document's end into the stream.
            cairo.surfaceFinish(surface)
            let finished = cairo.surfaceStatus(surface)
            guard finished == CAIRO_STATUS_SUCCESS else { throw Cairo.failure(cairo, finished) }
        }
        return sink.bytes
    }

    /// The pixels of a PNG (for tests comparing images): `0xAARRGGBB`, alpha premultiplied.
    public static func decodePNG(_ bytes: [UInt8]) throws(SignalPathError) -> ChartRaster {
        let cairo = try Cairo.library()
        let source = ByteSource(bytes)
        let surface = cairo.imageSurfaceCreateFromPNGStream(readBytes, Unmanaged.passUnretained(source).toOpaque())
        guard let surface else { throw .malformed(path: "PNG", reason: "Cairo returned no surface") }
        defer { cairo.surfaceDestroy(surface) }
        let status = cairo.surfaceStatus(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .malformed(path: "PNG", reason: cairo.describe(status)) }
        cairo.surfaceFlush(surface)
        return pixels(of: surface, cairo: cairo)
    }

    /// An image surface's pixels, copied out of Cairo's memory: `0xAARRGGBB` (RGB24: `0x00RRGGBB`).
    private static func pixels(of surface: OpaquePointer, cairo: Cairo) -> ChartRaster {
        let width = Int(cairo.imageSurfaceGetWidth(surface)), height = Int(cairo.imageSurfaceGetHeight(surface))
        let stride = Int(cairo.imageSurfaceGetStride(surface))
        guard let data = cairo.imageSurfaceGetData(surface), width > 0, height > 0 else { return ChartRaster(width: max(1, width), height: max(1, height)) }
        // Every pixel is copied: no fill first.
        let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                (buffer.baseAddress! + y * width).initialize(from: row, count: width)
            }
            count = width * height
        }
        return ChartRaster(width: width, height: height, pixels: pixels)
    }

    private static func draw(_ primitive: ChartPrimitive, cairo: Cairo, context: OpaquePointer) {
        func color(_ rgb: RGB, _ opacity: Double = 1) {
            cairo.setSourceRGBA(context, Double(rgb.red) / 255, Double(rgb.green) / 255, Double(rgb.blue) / 255, opacity)
        }
        switch primitive {
        case .rect(let rect, let fill, let opacity):
            color(fill, opacity)
            cairo.rectangle(context, rect.x, rect.y, rect.width, rect.height)
            cairo.fill(context)
        case .path(let points, let stroke, let fill, let width, let dash, let opacity):
            guard let first = points.first else { return }
            cairo.newPath(context)
            cairo.moveTo(context, first.x, first.y)
            for point in points.dropFirst() { cairo.lineTo(context, point.x, point.y) }
            if let fill {
                cairo.closePath(context)
                color(fill, opacity)
                if stroke == nil {
                    cairo.fill(context)
                    return
                }
                cairo.save(context)
                cairo.fill(context)
                cairo.restore(context)
            }
            if let stroke {
                color(stroke, opacity)
                cairo.setLineWidth(context, width)
                cairo.setLineJoin(context, CAIRO_LINE_JOIN_ROUND)
                cairo.setLineCap(context, dash.isEmpty ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND)
                dash.withUnsafeBufferPointer { cairo.setDash(context, $0.baseAddress, Int32($0.count), 0) }
                cairo.stroke(context)
                cairo.setDash(context, nil, 0, 0)
            }
        case .text(let text, let x, let y, let size, let rgb, let anchor, let bold, let centred, let vertical):
            cairo.selectFontFace(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo.setFontSize(context, size)
            var extents = cairo_text_extents_t()
            cairo.textExtents(context, text, &extents)
            let shift = anchor == .start ? 0 : anchor == .middle ? extents.x_advance / 2 : extents.x_advance
            // Digits and capitals are about 0.72 em tall in DejaVu Sans: centring uses that, not
            // the string's own extents, so labels of one column share a baseline.
            let rise = centred ? 0.36 * size : 0
            color(rgb)
            cairo.save(context)
            cairo.translate(context, x, y)
            if vertical { cairo.rotate(context, -Double.pi / 2) }
            cairo.moveTo(context, -shift, rise)
            cairo.showText(context, text)
            cairo.restore(context)
        case .image(let raster, let rect):
            // Read in place: Cairo only reads a source surface (copying the array for a mutable
            // pointer cost a heat map's size in memory and page faults per chart).
            raster.pixels.withUnsafeBytes { bytes in
                let stride = raster.width * 4  // ARGB32 rows need no padding: 4 bytes a pixel is aligned
                let data = UnsafeMutableRawPointer(mutating: bytes.baseAddress!).assumingMemoryBound(to: UInt8.self)
                guard let image = cairo.imageSurfaceCreateForData(data, CAIRO_FORMAT_ARGB32, Int32(raster.width), Int32(raster.height), Int32(stride))
                else { return }
                defer { cairo.surfaceDestroy(image) }
                cairo.save(context)
                cairo.rectangle(context, rect.x, rect.y, rect.width, rect.height)
                cairo.clip(context)
                cairo.translate(context, rect.x, rect.y)
                cairo.scale(context, rect.width / Double(raster.width), rect.height / Double(raster.height))
                cairo.setSourceSurface(context, image, 0, 0)
                cairo.patternSetFilter(cairo.getSource(context), CAIRO_FILTER_NEAREST)
                cairo.paint(context)
                cairo.restore(context)
                // The SVG and PDF surfaces copy the pixels when the image is painted: the array may go.
            }
        case .clip(let rect):
            cairo.save(context)
            cairo.rectangle(context, rect.x, rect.y, rect.width, rect.height)
            cairo.clip(context)
        case .unclip:
            cairo.restore(context)
        }
    }
}

/// Bytes a Cairo stream writes, collected.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// Bytes a Cairo stream reads, in order.
private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

private func writeBytes(_ closure: UnsafeMutableRawPointer?, _ data: UnsafePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
    Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}

private func readBytes(_ closure: UnsafeMutableRawPointer?, _ data: UnsafeMutablePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
    let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
    let count = Int(length)
    guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
    source.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + source.offset, count: count) }
    source.offset += count
    return CAIRO_STATUS_SUCCESS
}

/// libcairo's functions, looked up once with `dlsym` after one `dlopen`.
private struct Cairo: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading, callable from any thread (Cairo
    // objects are not shared between threads here: each render makes its own).
    let imageSurfaceCreate: sp_cairo_image_surface_create_fn
    let imageSurfaceCreateForData: sp_cairo_image_surface_create_for_data_fn
    let imageSurfaceCreateFromPNGStream: sp_cairo_image_surface_create_from_png_stream_fn
    let imageSurfaceGetData: sp_cairo_image_surface_get_data_fn
    let imageSurfaceGetWidth: sp_cairo_image_surface_get_width_fn
    let imageSurfaceGetHeight: sp_cairo_image_surface_get_height_fn
    let imageSurfaceGetStride: sp_cairo_image_surface_get_stride_fn
    let svgSurfaceCreateForStream: sp_cairo_svg_surface_create_for_stream_fn
    let pdfSurfaceCreateForStream: sp_cairo_pdf_surface_create_for_stream_fn
    let surfaceFlush: sp_cairo_surface_flush_fn
    let surfaceFinish: sp_cairo_surface_finish_fn
    let surfaceDestroy: sp_cairo_surface_destroy_fn
    let surfaceStatus: sp_cairo_surface_status_fn
    let create: sp_cairo_create_fn
    let destroy: sp_cairo_destroy_fn
    let status: sp_cairo_status_fn
    let statusToString: sp_cairo_status_to_string_fn
    let save: sp_cairo_save_fn
    let restore: sp_cairo_restore_fn
    let scale: sp_cairo_scale_fn
    let translate: sp_cairo_translate_fn
    let rotate: sp_cairo_rotate_fn
    let setSourceRGBA: sp_cairo_set_source_rgba_fn
    let setSourceSurface: sp_cairo_set_source_surface_fn
    let getSource: sp_cairo_get_source_fn
    let patternSetFilter: sp_cairo_pattern_set_filter_fn
    let setLineWidth: sp_cairo_set_line_width_fn
    let setLineJoin: sp_cairo_set_line_join_fn
    let setLineCap: sp_cairo_set_line_cap_fn
    let setDash: sp_cairo_set_dash_fn
    let newPath: sp_cairo_new_path_fn
    let moveTo: sp_cairo_move_to_fn
    let lineTo: sp_cairo_line_to_fn
    let closePath: sp_cairo_close_path_fn
    let rectangle: sp_cairo_rectangle_fn
    let stroke: sp_cairo_stroke_fn
    let fill: sp_cairo_fill_fn
    let clip: sp_cairo_clip_fn
    let paint: sp_cairo_paint_fn
    let selectFontFace: sp_cairo_select_font_face_fn
    let setFontSize: sp_cairo_set_font_size_fn
    let textExtents: sp_cairo_text_extents_fn
    let showText: sp_cairo_show_text_fn

    static let libraryName = "libcairo.so.2"
    static let need = "charts need Cairo (Debian: apt-get install libcairo2)"
    static let loaded = load()

    static func failure(_ cairo: Cairo, _ status: cairo_status_t) -> SignalPathError {
        .unavailable(path: "chart", reason: "Cairo: " + cairo.describe(status))
    }

    func describe(_ status: cairo_status_t) -> String {
        statusToString(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
    }

    /// Every function looked up before failing, so that an old Cairo names all it lacks.
    init(_ library: SharedLibrary) throws(SignalPathError) {
        var missing: [String] = []
        func symbol<F>(_ name: String, _ type: F.Type) -> F {
            if let function = library.optionalFunction(name, type) { return function }
            missing.append(name)
            return unsafeBitCast(library.optionalFunction("cairo_version", UnsafeRawPointer.self)!, to: type)  // never called: init fails below
        }
        imageSurfaceCreate = symbol("cairo_image_surface_create", sp_cairo_image_surface_create_fn.self)
        imageSurfaceCreateForData = symbol("cairo_image_surface_create_for_data", sp_cairo_image_surface_create_for_data_fn.self)
        imageSurfaceCreateFromPNGStream = symbol("cairo_image_surface_create_from_png_stream", sp_cairo_image_surface_create_from_png_stream_fn.self)
        imageSurfaceGetData = symbol("cairo_image_surface_get_data", sp_cairo_image_surface_get_data_fn.self)
        imageSurfaceGetWidth = symbol("cairo_image_surface_get_width", sp_cairo_image_surface_get_width_fn.self)
        imageSurfaceGetHeight = symbol("cairo_image_surface_get_height", sp_cairo_image_surface_get_height_fn.self)
        imageSurfaceGetStride = symbol("cairo_image_surface_get_stride", sp_cairo_image_surface_get_stride_fn.self)
        svgSurfaceCreateForStream = symbol("cairo_svg_surface_create_for_stream", sp_cairo_svg_surface_create_for_stream_fn.self)
        pdfSurfaceCreateForStream = symbol("cairo_pdf_surface_create_for_stream", sp_cairo_pdf_surface_create_for_stream_fn.self)
        surfaceFlush = symbol("cairo_surface_flush", sp_cairo_surface_flush_fn.self)
        surfaceFinish = symbol("cairo_surface_finish", sp_cairo_surface_finish_fn.self)
        surfaceDestroy = symbol("cairo_surface_destroy", sp_cairo_surface_destroy_fn.self)
        surfaceStatus = symbol("cairo_surface_status", sp_cairo_surface_status_fn.self)
        create = symbol("cairo_create", sp_cairo_create_fn.self)
        destroy = symbol("cairo_destroy", sp_cairo_destroy_fn.self)
        status = symbol("cairo_status", sp_cairo_status_fn.self)
        statusToString = symbol("cairo_status_to_string", sp_cairo_status_to_string_fn.self)
        save = symbol("cairo_save", sp_cairo_save_fn.self)
        restore = symbol("cairo_restore", sp_cairo_restore_fn.self)
        scale = symbol("cairo_scale", sp_cairo_scale_fn.self)
        translate = symbol("cairo_translate", sp_cairo_translate_fn.self)
        rotate = symbol("cairo_rotate", sp_cairo_rotate_fn.self)
        setSourceRGBA = symbol("cairo_set_source_rgba", sp_cairo_set_source_rgba_fn.self)
        setSourceSurface = symbol("cairo_set_source_surface", sp_cairo_set_source_surface_fn.self)
        getSource = symbol("cairo_get_source", sp_cairo_get_source_fn.self)
        patternSetFilter = symbol("cairo_pattern_set_filter", sp_cairo_pattern_set_filter_fn.self)
        setLineWidth = symbol("cairo_set_line_width", sp_cairo_set_line_width_fn.self)
        setLineJoin = symbol("cairo_set_line_join", sp_cairo_set_line_join_fn.self)
        setLineCap = symbol("cairo_set_line_cap", sp_cairo_set_line_cap_fn.self)
        setDash = symbol("cairo_set_dash", sp_cairo_set_dash_fn.self)
        newPath = symbol("cairo_new_path", sp_cairo_new_path_fn.self)
        moveTo = symbol("cairo_move_to", sp_cairo_move_to_fn.self)
        lineTo = symbol("cairo_line_to", sp_cairo_line_to_fn.self)
        closePath = symbol("cairo_close_path", sp_cairo_close_path_fn.self)
        rectangle = symbol("cairo_rectangle", sp_cairo_rectangle_fn.self)
        stroke = symbol("cairo_stroke", sp_cairo_stroke_fn.self)
        fill = symbol("cairo_fill", sp_cairo_fill_fn.self)
        clip = symbol("cairo_clip", sp_cairo_clip_fn.self)
        paint = symbol("cairo_paint", sp_cairo_paint_fn.self)
        selectFontFace = symbol("cairo_select_font_face", sp_cairo_select_font_face_fn.self)
        setFontSize = symbol("cairo_set_font_size", sp_cairo_set_font_size_fn.self)
        textExtents = symbol("cairo_text_extents", sp_cairo_text_extents_fn.self)
        showText = symbol("cairo_show_text", sp_cairo_show_text_fn.self)
        guard missing.isEmpty else {
            throw .unavailable(path: Self.libraryName, reason: "Cairo lacks \(missing.joined(separator: ", ")) (Cairo 1.16 or later is needed)")
        }
    }
}
