/* Reads each PNG named on the command line with libpng as cairo's loader does (palette and low depths expanded, tRNS
 * to alpha, 16-bit samples stripped to their high byte, grey to RGB, an opaque filler, png_read_end to IEND) and writes
 * beside it FILE.libpng: "ok WIDTH HEIGHT\n" and the straight RGBA bytes, or "error MESSAGE\n".
 * Built and run by compare.py; needs libpng-dev. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct source { const unsigned char *bytes; size_t size, offset; };

static char message[256];

static void on_error(png_structp png, png_const_charp text) {
    snprintf(message, sizeof message, "%s", text);
    longjmp(png_jmpbuf(png), 1);
}

static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void on_read(png_structp png, png_bytep target, size_t count) {
    struct source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "read beyond the end of the file");
    memcpy(target, source->bytes + source->offset, count);
    source->offset += count;
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    *size = fread(bytes, 1, (size_t)length, file);
    fclose(file);
    return bytes;
}

static void decode(const char *path) {
    size_t size = 0;
    unsigned char *volatile bytes = read_file(path, &size);
    char out_path[4096];
    snprintf(out_path, sizeof out_path, "%s.libpng", path);
    FILE *out = fopen(out_path, "wb");
    if (!bytes || !out) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    struct source source = { bytes, size, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png_create_info_struct(png);
    /* volatile: changed between setjmp and a longjmp back to it. */
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int kept = 1;
    if (setjmp(png_jmpbuf(png))) {
        fprintf(out, "error %s\n", message);
    } else {
        png_set_read_fn(png, &source, on_read);
        png_read_info(png, info);
        png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
        int depth = png_get_bit_depth(png, info), color = png_get_color_type(png, info);
        if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
        if (color == PNG_COLOR_TYPE_GRAY) png_set_expand_gray_1_2_4_to_8(png);
        if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
        if (depth == 16) png_set_strip_16(png);
        if (depth < 8) png_set_packing(png);
        if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) png_set_interlace_handling(png);
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
        png_read_update_info(png, info);
        size_t row_bytes = png_get_rowbytes(png, info);
        if (row_bytes != (size_t)width * 4) png_error(png, "rows are not 4 bytes a pixel");
        /* Images too large to hold are still read to their end, every row into one buffer, for the verdict alone. */
        kept = (size_t)width * height <= ((size_t)1 << 26);
        pixels = malloc(kept ? row_bytes * height : row_bytes);
        rows = malloc(sizeof(png_bytep) * height);
        if (!pixels || !rows) png_error(png, "out of memory");
        for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (kept ? row_bytes * y : 0);
        png_read_image(png, rows);
        png_read_end(png, info);
        fprintf(out, "ok %u %u\n", width, height);
        if (kept) fwrite(pixels, 1, row_bytes * height, out);
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    free(rows);
    free(bytes);
    fclose(out);
}

int main(int argc, char **argv) {
    for (int index = 1; index < argc; index++) decode(argv[index]);
    return 0;
}
