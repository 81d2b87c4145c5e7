/**
 * Every number the photo checks decide with. Each has a one-line reason; the figures they were
 * calibrated on are in the README beside this file.
 */

// --- Measuring (analyze-photo.ts) ---------------------------------------------------------------

/** Photos are analysed at most this big: the spec's upload optimiser caps photos at 1024 px anyway. */
export const ANALYSIS_MAX_SIDE = 1024;

/** Detector confidence to count a face: face-api's own default for SSD MobileNet v1. */
export const MIN_DETECTION_SCORE = 0.5;

/** At most this many faces are reported; more than one already fails, the rest is noise. */
export const MAX_DETECTED_FACES = 10;

/**
 * Faces described (landmarks + descriptor), largest first: the person, a false box the detector
 * sometimes puts over their clothes (bigger than the face), and one more. More is a group photo,
 * which single_face already refuses, and each face described costs as much as the main one.
 */
export const MAX_DESCRIBED_FACES = 3;

/** The main face is resampled to this square before measuring sharpness, so scores compare across photo sizes. */
export const SHARPNESS_SAMPLE_SIZE = 128;

// --- Deciding (check-photo-set.ts) --------------------------------------------------------------

/** The spec's recommended minimum: "recommended minimum 512px", applied to the shorter side. */
export const MIN_PHOTO_SIDE_PX = 512;

/**
 * A second face counts when it is at least this fraction of the main face's height: smaller ones
 * are strangers far behind, posters or reflections, which the trainer's crop around the main face
 * leaves out.
 */
export const SECONDARY_FACE_MIN_RELATIVE_HEIGHT = 0.5;

/**
 * The main face must fill at least this fraction of the photo height: below it the photo is a
 * full-body or distant shot, and the trainer sees more background than face.
 */
export const MIN_FACE_HEIGHT_RATIO = 0.12;

/**
 * The main face must be at least this many pixels high in the photo: the face descriptor samples
 * faces at 150 px, and a face under ~80 px has too little detail to learn a likeness from.
 */
export const MIN_FACE_HEIGHT_PX = 80;

/**
 * Sharpness (variance of the Laplacian of the face at 128 px, normalised greyscale) below this is
 * blurry: sharp faces in the fixtures score 137-311 (the lowest a rotated, resampled copy), a
 * Gaussian blur of ~1.5% of the face height scores under 35. 60 is about 2x from both.
 */
export const MIN_FACE_SHARPNESS = 60;

/**
 * Two descriptors of the same person are closer than this (euclidean). dlib published 0.6 for
 * this model (99.38% on LFW); our descriptor (levelled face, averaged with its mirror image) puts
 * photos of one person closer. Measured on the vote of checkPhotoSet:
 * - real photos of 10 people from different days (bench/same-person-real.ts, 55 photos): no
 *   genuine photo flagged from 0.52 up, the first at 0.50; one person's photos at most 0.547
 *   apart, different people from 0.497 (p1 0.637); 1 of 495 strangers let in at 0.55, 2 at 0.57;
 * - phone-made photos of 25 people (bench/same-person.ts, 3951 genuine photos in sessions): none
 *   flagged from 0.50 to 0.65; strangers let in 96 of 4043 at 0.55, 224 at 0.57.
 * 0.55 keeps every genuine photo of both benches with 0.03-0.05 to spare and halves the strangers
 * let in against 0.57.
 */
export const SAME_PERSON_MAX_DISTANCE = 0.55;

/**
 * A face's landmarks fit it when their aligned frame is at least this fraction of the detector's
 * box width (`landmarkSpan`): 0.80-1.6 on the same-person bench's faces that matched their person,
 * 0.29-0.78 where the landmarks collapsed onto an eye (a face seen from above or in profile) or
 * were put on clothes. Below it the face's descriptor is not its likeness, so it is neither judged
 * nor used to judge others. The margin is thin (0.78 against 0.80): a fitted face just under it
 * is only left unjudged.
 */
export const MIN_LANDMARK_SPAN = 0.8;

/**
 * A photo is judged against at least this many other single-face photos: with only one, a mismatch
 * cannot say which of the two is the odd one out.
 */
export const MIN_REFERENCE_PHOTOS = 2;

/**
 * A photo shows the set's person when it matches (distance below SAME_PERSON_MAX_DISTANCE) at least
 * this fraction of the other photos: a majority vote, so a few odd photos cannot flag the rest.
 */
export const SAME_PERSON_MIN_MATCH_FRACTION = 0.5;
