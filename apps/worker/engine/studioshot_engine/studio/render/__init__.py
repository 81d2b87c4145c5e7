"""The studio engine's renderer: a personal model's portraits re-photographed in a studio.

model     reads a format-2 model.npz (cached: the engine stays warm across jobs)
subject   per portrait, once: the matte, foreground colours without the old background's
          spill, the person continued past the photo's edges, and the head's geometry
look      StudioParams as typed values, a template's or read from the prompt's words, and
          each image's variation (camera and light)
compose   one image, stage by stage
framing   where the portrait lands in the square output
backdrops the procedural studio backdrops
lighting  key, fill and rim light on the person; the cast shadow on the backdrop
retouch   skin smoothing and eye clarity
grade     the colour grade
filters   the guided filter and a wide blur
ssim      the structural similarity (SSIM) the tests and the benchmark measure variety with
"""
