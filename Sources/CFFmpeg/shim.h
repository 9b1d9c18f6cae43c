// FFmpeg's headers only: no `link` in module.modulemap. libavformat and libavcodec bring ~130 shared
// libraries with them, so FFmpeg.swift loads them with dlopen on first use, and calls the
// functions through pointers whose types come from these declarations (`sp_fn_NAME`).
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/samplefmt.h>

#define SP_FN(name) typedef __typeof__(name) *sp_fn_##name;

SP_FN(avformat_alloc_context)
SP_FN(avformat_open_input)
SP_FN(avformat_find_stream_info)
SP_FN(avformat_close_input)
SP_FN(avformat_seek_file)
SP_FN(av_read_frame)
SP_FN(avio_alloc_context)
SP_FN(avio_context_free)
SP_FN(avcodec_find_decoder)
SP_FN(avcodec_alloc_context3)
SP_FN(avcodec_free_context)
SP_FN(avcodec_parameters_to_context)
SP_FN(avcodec_open2)
SP_FN(avcodec_send_packet)
SP_FN(avcodec_receive_frame)
SP_FN(avcodec_flush_buffers)
SP_FN(avcodec_get_name)
SP_FN(av_packet_alloc)
SP_FN(av_packet_free)
SP_FN(av_packet_unref)
SP_FN(av_frame_alloc)
SP_FN(av_frame_free)
SP_FN(av_frame_unref)
SP_FN(av_malloc)
SP_FN(av_free)
SP_FN(av_dict_get)
SP_FN(av_dict_set)
SP_FN(av_dict_free)
SP_FN(av_log_set_level)
SP_FN(av_strerror)
SP_FN(av_rescale_q)
SP_FN(avformat_index_get_entries_count)
SP_FN(avformat_index_get_entry)

// Macros Swift does not import.
static const int SP_AVERROR_EOF = AVERROR_EOF;
static const int SP_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int SP_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int64_t SP_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
