/*
 * codec.h - compressed inputs and outputs: zstd, gzip, bzip2 and xz,
 * through their own libraries (libzstd, zlib, libbz2, liblzma).
 *
 * The tools read and write FILE streams; a compressed file is one more
 * FILE (fopencookie) in front of the file, so the readers, -j and the
 * output layer work on the text as they always did.
 */
#ifndef CODEC_H
#define CODEC_H
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * The compression whose magic number starts b (n bytes): "zstd" (a frame
 * or a skippable frame), "gzip", "bzip2", "xz"; NULL for anything else.
 */
const char *codec_magic(const void *b, size_t n);

/*
 * f, just opened for reading and not yet read, as the tools should read
 * it: f itself when its first bytes are no magic number (a plain file
 * costs one pread and nothing after), else a stream of its decompressed
 * text that closes f with itself (stdin is not closed).  A pipe is
 * peeked by reading, and those bytes are given back by the new stream.
 * NULL only when out of memory.
 */
FILE *codec_ropen(FILE *f);

/*
 * Why the stream f (from codec_ropen) failed: "zstd: REASON (at byte N
 * of the compressed input)"; NULL if f is not one or did not fail so
 * (a plain read error is the caller's to say).
 */
const char *codec_error(FILE *f);

/*
 * The cores this process may run on (its CPU affinity, as taskset(1)
 * sets it; else the online processors), 1 to 64: the decoding thread
 * runs only when there are two, and -j 0 counts them.
 */
int codec_cores(void);

/*
 * Whether the stream f (from codec_ropen) is decompressed on a thread of
 * its own, which keeps a core busy beside the reader (-j 0 leaves it
 * that core); false for any other stream.
 */
bool codec_threaded(FILE *f);

/*
 * For --progress: the bytes of the file under f read so far (compressed
 * ones for a compressed input; any thread may ask), and its size in
 * *size (-1 if it has none: a pipe).  -1 if not known.
 */
long long codec_progress(FILE *f, long long *size);

/* The compression an output named path gets from its suffix (.zst, .gz,
   .bz2, .xz), or NULL. */
const char *codec_suffix(const char *path);

/*
 * The level for an output of that compression: ZHKIT_COMPRESS_LEVEL if
 * set, else the codec's own tool's default (zstd 3, gzip 6, bzip2 9,
 * xz 6).  -1 if the variable is no level of it (*why says so).
 */
int codec_level(const char *kind, const char **why);

/*
 * A stream that compresses what is written to it and hands the result to
 * write(arg, ...) (which returns the bytes it took, short on an error);
 * closing it ends the compressed stream and then calls close(arg).
 * NULL if out of memory.
 */
FILE *codec_wopen(const char *kind, int level,
    ssize_t (*write)(void *, const char *, size_t), int (*close)(void *),
    void *arg);

#endif
