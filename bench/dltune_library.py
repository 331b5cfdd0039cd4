"""Calls a library written by `dltune compile` from Python (ctypes, numpy).

    lib = DltuneLibrary("model.so", "main", result_shape=(1, 1000))
    y = lib(x)          # x: a C-contiguous float32 array per argument

The library's `_mlir_ciface_<entry>` takes every memref descriptor by
pointer - allocated and aligned pointers, offset, sizes, strides, as
int64 words - and, for a function with a result, a descriptor it fills,
passed first; the result's storage is malloc'ed by the library and freed
here after copying (unless it aliases an argument or a global). Used by bench/models.py to time dltune and PyTorch in
one process, call by call.
"""
import ctypes
import ctypes.util

import numpy as np

_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_libc.free.argtypes = [ctypes.c_void_p]


def _descriptor(array):
    rank = array.ndim
    words = np.zeros(3 + 2 * rank, dtype=np.int64)
    words[0] = words[1] = array.ctypes.data
    words[3:3 + rank] = array.shape
    words[3 + rank:] = [s // array.itemsize for s in array.strides]
    return words


class DltuneLibrary:
    def __init__(self, path, entry, result_shape=None, result_dtype=np.float32):
        self.lib = ctypes.CDLL(path)
        self.function = getattr(self.lib, "_mlir_ciface_" + entry)
        self.function.restype = None
        self.result_shape = tuple(result_shape) if result_shape is not None else None
        self.result_dtype = np.dtype(result_dtype)

    def __call__(self, *arrays):
        arrays = [np.ascontiguousarray(a) for a in arrays]
        for a in arrays:
            if a.dtype != np.float32:
                raise TypeError("arguments must be float32 arrays, got %s" % a.dtype)
        descriptors = [_descriptor(a) for a in arrays]
        pointers = [d.ctypes.data_as(ctypes.c_void_p) for d in descriptors]
        if self.result_shape is None:
            self.function(*pointers)
            return None
        rank = len(self.result_shape)
        result = np.zeros(3 + 2 * rank, dtype=np.int64)
        self.function(result.ctypes.data_as(ctypes.c_void_p), *pointers)
        allocated = int(result[0])
        # A result that aliases an argument or a global (0xdeadbeef, MLIR's
        # marker for memref.get_global) is not the library's to give away.
        owned = allocated != 0xdeadbeef and all(allocated != int(d[0]) for d in descriptors)
        try:
            sizes = tuple(int(s) for s in result[3:3 + rank])
            if sizes != self.result_shape:
                raise RuntimeError("result shape %s, expected %s" % (sizes, self.result_shape))
            contiguous = [int(np.prod(sizes[i + 1:])) for i in range(rank)]
            if [int(s) for s in result[3 + rank:]] != contiguous:
                raise RuntimeError("the result is not contiguous: strides %s" % result[3 + rank:])
            count = int(np.prod(sizes))
            start = int(result[1]) + int(result[2]) * self.result_dtype.itemsize
            buffer = (ctypes.c_char * (count * self.result_dtype.itemsize)).from_address(start)
            return np.frombuffer(buffer, dtype=self.result_dtype).reshape(sizes).copy()
        finally:
            if owned:
                _libc.free(ctypes.c_void_p(allocated))
