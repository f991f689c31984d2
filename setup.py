"""The compiled parts of the solver (src/patience/solver/_relaxedc.c, _multisetc.c).

Optional: where it cannot be built, the solver runs the same search in Python
(patience/solver/relaxed.py, multiset.py), only slower.
"""

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra"]

setup(ext_modules=[
    Extension("patience.solver._relaxedc", ["src/patience/solver/_relaxedc.c"],
              depends=["src/patience/solver/_restarts.h", "src/patience/solver/_drain.h",
                       "src/patience/solver/_pages.h"],
              extra_compile_args=FLAGS, optional=True),
    # the search over Fours Up's images (multiset.py is its reference)
    Extension("patience.solver._multisetc", ["src/patience/solver/_multisetc.c"],
              depends=["src/patience/solver/_restarts.h", "src/patience/solver/_drain.h",
                       "src/patience/solver/_pages.h"],
              extra_compile_args=FLAGS, optional=True),
])
