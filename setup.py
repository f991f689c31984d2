"""The compiled part of the solver (src/patience/solver/_relaxedc.c).

Optional: where it cannot be built, the solver runs the same search in Python
(patience/solver/relaxed.py), only slower.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("patience.solver._relaxedc", ["src/patience/solver/_relaxedc.c"],
                             extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
                             optional=True)])
