// <complex.h> must not come first: fftwf_complex then stays a (Float, Float) tuple in Swift.
#include <fftw3.h>
