// The vectorized part of the edge solver's affinities for 3-channel guides
// (see affinity_rows.hpp): eight pixels at a time, the channels split out
// of the interleaved bytes by shuffles, the squared distances in 32-bit
// integers (exact) and the table read by a gather, so each affinity is the
// scalar loop's.
#include "affinity_rows.hpp"
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

namespace dualcam_kernels {
namespace {

/// Channel c of 8 interleaved RGB pixels (bytes 0..23 of lo:hi) as 32-bit lanes.
__attribute__((target("avx2"))) inline __m256i channel(__m128i lo, __m128i hi, int c) {
    // Byte indices of channel c within lo (pixels 0-5 or 0-4) and hi (the rest); -1 = zero.
    static const int8_t kLo[3][16] = {{0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
                                      {1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
                                      {2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};
    static const int8_t kHi[3][16] = {{-1, -1, -1, -1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, -1},
                                      {-1, -1, -1, -1, -1, 0, 3, 6, -1, -1, -1, -1, -1, -1, -1, -1},
                                      {-1, -1, -1, -1, -1, 1, 4, 7, -1, -1, -1, -1, -1, -1, -1, -1}};
    const __m128i bytes = _mm_or_si128(_mm_shuffle_epi8(lo, _mm_loadu_si128(reinterpret_cast<const __m128i *>(kLo[c]))),
                                       _mm_shuffle_epi8(hi, _mm_loadu_si128(reinterpret_cast<const __m128i *>(kHi[c]))));
    return _mm256_cvtepu8_epi32(bytes);
}

/// Squared RGB distances of the 8 pixels at `a` and `b` (24 bytes each, 32 readable).
__attribute__((target("avx2"))) inline __m256i distance2(const uint8_t *a, const uint8_t *b) {
    const __m128i alo = _mm_loadu_si128(reinterpret_cast<const __m128i *>(a));
    const __m128i ahi = _mm_loadu_si128(reinterpret_cast<const __m128i *>(a + 16));
    const __m128i blo = _mm_loadu_si128(reinterpret_cast<const __m128i *>(b));
    const __m128i bhi = _mm_loadu_si128(reinterpret_cast<const __m128i *>(b + 16));
    __m256i sum = _mm256_setzero_si256();
    for (int c = 0; c < 3; ++c) {
        const __m256i d = _mm256_sub_epi32(channel(alo, ahi, c), channel(blo, bhi, c));
        sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(d, d));
    }
    return sum;
}

}  // namespace

__attribute__((target("avx2"))) int affinity_row_avx2(const uint8_t *row, const uint8_t *next, int w, const float *all,
                                                      float *right, float *below) {
    // A run of 8 pixels reads 32 bytes from 3x and, for the right
    // neighbours, from 3x + 3: both within the row's 3w bytes.
    int x = 0;
    for (; 3 * x + 3 + 32 <= 3 * w; x += 8) {
        const uint8_t *p = row + 3 * x;
        _mm256_storeu_ps(right + x, _mm256_i32gather_ps(all, distance2(p, p + 3), 4));
        if (next) _mm256_storeu_ps(below + x, _mm256_i32gather_ps(all, distance2(p, next + 3 * x), 4));
    }
    return x;
}

}  // namespace dualcam_kernels

#else

namespace dualcam_kernels {
int affinity_row_avx2(const uint8_t *, const uint8_t *, int, const float *, float *, float *) { return 0; }
}  // namespace dualcam_kernels

#endif
