"""The studio engine: CPU only, no model downloads; OpenCV's bundled detectors, NumPy and Pillow."""
