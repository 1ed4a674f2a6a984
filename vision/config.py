"""Every threshold and tuning knob of the reader, in one place.

The reader never hard-codes a number that a person might want to tune; it
takes a :class:`ReaderConfig`. Change one field with :func:`dataclasses.replace`.

Example::

    >>> from dataclasses import replace
    >>> config = replace(DEFAULT_CONFIG, stable_frames=5)
    >>> config.stable_frames
    5
"""

from __future__ import annotations

from dataclasses import dataclass

#: Tag ids carried by pieces (DICT_4X4_250; below them, the mats' corner markers). Fixed by
#: the kit's visual spec, not a knob; kept here, where nothing is imported, so the station
#: checks a tag id without loading the reader.
FIRST_TAG_ID = 50
LAST_TAG_ID = 249


@dataclass(frozen=True)
class ReaderConfig:
    """Thresholds of the reading pipeline (colour distances are in printed sRGB units, 0..255)."""

    # -- marker detection (vision.markers) ------------------------------------
    #: Detect on the image shrunk by this factor when it is at least
    #: ``downscale_min_width`` wide, then refine mat corners on the full image.
    detect_scale: float = 1.0
    downscale_min_width: int = 1600
    adaptive_window_min: int = 7
    adaptive_window_max: int = 7
    adaptive_window_step: int = 10
    min_marker_perimeter_rate: float = 0.02
    max_marker_perimeter_rate: float = 0.5
    polygonal_approx_accuracy: float = 0.05
    min_corner_distance_rate: float = 0.05
    error_correction_rate: float = 0.35
    max_erroneous_border_bits: float = 0.35
    #: Bits are read from the centre of each bit cell, ignoring this share of
    #: its margin (blur mixes neighbouring bits near the edges).
    bit_margin: float = 0.25
    bit_cell_pixels: int = 8
    subpixel_window: int = 3
    #: A missing mat marker is looked for among the squares the detector could not
    #: decode (``MarkerDetector._rescue``): a square with sides of at least this ...
    rescue_min_side_px: float = 12.0
    #: ... whose white bits are brighter than its black ones by this (0..255,
    #: means) ...
    rescue_min_contrast: float = 40.0
    #: ... and whose dimmest white bit is brighter than its brightest black bit
    #: by this share of that contrast.
    rescue_min_separation: float = 0.15
    #: A mat seen through one marker: its other markers are looked for where that
    #: marker's pose puts them, their corners refined by at most this share of a side.
    look_max_shift: float = 0.3
    #: A decoded tag counts only when its white bits are brighter than its black
    #: ones (frame included) by this (0..255, means): a card washed by glare into a
    #: smooth grey square can decode by chance, with almost no contrast (10 on
    #: tuning seed 2002 #15; the real tags of the tuning photos: 51 and over).
    tag_min_contrast: float = 30.0
    #: A tags-mat cell read ``?`` with no tag found on it is looked at once more for a
    #: tag centred on it, this far off centre (cells) along each axis at most.
    tag_look_shifts: tuple[float, ...] = (0.0, -0.06, 0.06)
    #: ... and counts only when its sticker's white rim is seen all round, each place at
    #: least this share of the way from the tag's black to its white.
    tag_rim_min_share: float = 0.75

    # -- mat pose (vision.mats) -------------------------------------------------
    #: RANSAC reprojection threshold, in pixels of the full image.
    pose_ransac_px: float = 3.0
    #: A fit whose median reprojection error exceeds this is rejected.
    pose_max_error_px: float = 4.0
    #: Each marker of a mat fitted from two or more must sit where the fit puts
    #: it: its corners within this many pixels, or this share of its side if larger.
    pose_marker_error_px: float = 4.0
    pose_marker_error_share: float = 0.3
    #: Without a lens, two markers of a mat that disagree may be brought to agree
    #: by a radial lens estimated from them alone, its k1 within this range (the
    #: spec's lenses, with a little room).
    pose_mat_lens_k1: tuple[float, float] = (-0.35, 0.05)
    #: A pose must be camera-like: the cell's size in pixels may vary across the
    #: mat by at most this factor (a stray square decoded by chance rarely agrees).
    pose_max_scale_ratio: float = 3.0
    #: ... and a cell must be at least this many pixels wide.
    pose_min_cell_px: float = 10.0
    #: A mat seen through one marker only is found when the white border and
    #: margin next to that marker are seen: at least this many border cells ...
    single_marker_min_white_cells: int = 3
    #: ... and at least this many places of the white margin round the mat ...
    single_marker_min_margin_places: int = 2
    #: ... each no darker than this share of the marker's white bits ...
    single_marker_white_ratio: float = 0.7
    #: ... even (std over mean below this) and of the marker's white's tint.
    single_marker_white_evenness: float = 0.1
    #: With only the two border cells beside the marker white, the grid's corner
    #: must show too: at these places along both sides of that corner (cells) ...
    single_marker_grid_along: tuple[float, ...] = (0.25, 0.5, 0.75)
    #: ... the border this far outside (squares of this half-side) at least as
    #: bright as white paper must be, and the grid as far inside darker than
    #: it by this share (the empty grey is 16 % darker than the white).
    single_marker_grid_depth: float = 0.2
    single_marker_grid_half: float = 0.08
    single_marker_grid_step: float = 0.06
    #: Cells further than this (in cells) from the only marker seen are ``?``:
    #: a pose from one marker's corners is not trusted far away.
    single_marker_reach: float = 3.5
    #: Rectified mats are sampled at this many pixels per cell.
    rectified_px_per_cell: int = 16
    #: A cell is read from its central square of this side (fraction of the cell).
    cell_inner_fraction: float = 0.6

    # -- lattice from the grid lines (vision.lattice) -----------------------------
    #: A mat fitted on at least this many markers has its lattice refined from its
    #: printed grid lines (a lone marker's pose is only trusted near it anyway) ...
    lattice_min_markers: int = 2
    #: ... when it has at least this many rows and columns.
    lattice_min_cells: int = 2
    #: A grid line is looked for in the photo, in profiles across it sampled this
    #: far apart (cells) ...
    lattice_step: float = 1 / 48
    #: ... at most ``lattice_max_shift`` from where the pose puts it, averaged over
    #: this many profiles along the central part of each cell's side (fractions) ...
    lattice_samples_along: int = 6
    lattice_segment_from: float = 0.2
    lattice_segment_to: float = 0.8
    #: ... as a dip at least this much darker (0..255) than both sides ...
    lattice_min_dip: float = 6.0
    #: ... between two plain cells (std of the cell's centre at most this); the
    #: grid's outer edge, as a fall from the border's white of at least this per
    #: sample step.
    lattice_plain_std: float = 14.0
    lattice_min_step: float = 6.0
    #: At least this many segments per direction (the quadratic terms of the shift
    #: only with ``lattice_quadratic_segments``, else an affine shift) ...
    lattice_min_segments: int = 8
    lattice_quadratic_segments: int = 18
    #: ... at least this share of them within this many cells of the fitted shift ...
    lattice_min_agreeing: float = 0.6
    lattice_outlier_cells: float = 0.05
    #: ... (the shift is held to zero at the markers seen with this weight against
    #: one segment's) ...
    lattice_anchor_weight: float = 3.0
    #: ... the bending terms drawn towards zero with this weight ...
    lattice_bend_prior: float = 2.0
    #: ... and a largest shift over the grid between these (cells): smaller is not
    #: worth a second rectification, larger is not a lens's bow.
    lattice_min_shift: float = 0.03
    lattice_max_shift: float = 0.2

    # -- lens (vision.lens) ---------------------------------------------------------
    #: Without a calibration, a radial k1 is estimated from the mats seen with at
    #: least this many marker corners (three markers) ...
    lens_min_points: int = 12
    #: ... normalised by a focal length of this share of the image width ...
    lens_focal_share: float = 0.9
    #: ... searched over this range and step, then refined ...
    lens_k1_min: float = -0.5
    lens_k1_max: float = 0.2
    lens_k1_step: float = 0.1
    lens_refine_steps: int = 10
    #: ... each corner's error counting at most this (a stray corner must not steer it) ...
    lens_error_cap_px: float = 12.0
    #: No lens is looked for when one homography per mat fits within this (RMS px).
    lens_skip_rms_px: float = 0.6
    #: ... and used only when it lowers the RMS corner error by this many pixels.
    lens_min_gain_px: float = 0.25

    # -- camera calibration (vision.calibrate) ----------------------------------------
    #: A mat is a calibration view when seen through at least this many markers ...
    calibration_min_markers: int = 3
    #: ... agreeing with its layout within this share of a marker's side (the lens is
    #: not known yet, so straight lines may still bow) ...
    calibration_marker_share: float = 0.5
    #: ... and at least this many views are needed.
    calibration_min_views: int = 6

    # -- lighting model (vision.cells) ------------------------------------------
    #: The white is refitted with the border samples within each of these
    #: (above, below) fractions of the last fit, in turn (the first fit goes
    #: through the white seen on the markers): a hand or a shadow on the border
    #: drops out; the tighter "below" of the last rounds also drops a faint
    #: shadow's edge.
    white_fit_schedule: tuple[tuple[float, float], ...] = (
        (0.2, 0.2), (0.12, 0.12), (0.06, 0.06), (0.06, 0.03), (0.06, 0.03))
    #: A border sample whose channels' ratios to the markers' white differ by
    #: more than this fraction is not white paper (a hand, a sleeve).
    white_tint_tolerance: float = 0.12
    #: The fitted white is kept within the range of the border whites seen,
    #: widened by this fraction (a plane fitted to one side of a mat must not
    #: run wild across the other).
    white_extrapolation_slack: float = 0.1
    #: Fewer inlier border samples than this and the light is taken as constant.
    white_min_samples_for_plane: int = 6
    #: A border sample noisier than this (std, 0..255) is not used for the white.
    white_sample_max_std: float = 18.0
    #: A patch further than this from its printed colour (scaled like the class
    #: tolerances below) is ignored: it is covered or in shadow (a shadow of 45 %
    #: moves the red patch by about 95). A real sensor saturates the red card to
    #: about (212, 15, 2), 55 away: still its patch, and the only look that fits
    #: the red cards.
    patch_max_deviation: float = 65.0

    # -- cell classification (vision.cells) -------------------------------------
    #: A pixel belongs to a class when it is at most this far from the class colour.
    pixel_class_distance: float = 48.0
    #: A cell takes a class when this share of its pixels belong to it ...
    cell_class_share: float = 0.85
    #: ... its mean colour is at most this far from the class colour ...
    cell_mean_distance: float = 46.0
    #: Colour distances to a class are divided by its brightness (max channel)
    #: relative to the empty grey, but by no less than this.
    dark_tolerance_floor: float = 0.5
    #: ... and at least this much closer to it than to any other class.
    cell_margin: float = 18.0
    #: ... and its mean colour within this perceptual distance (CIE76 ΔE in L*a*b*)
    #: of the class: tight for the neutral classes (a washed-out card turns greyish,
    #: never quite neutral), looser for the coloured ones.
    lab_class_tolerance: tuple[tuple[str, float], ...] = ((".", 13.0), ("#", 28.0))
    lab_default_tolerance: float = 26.0
    #: Colour mats: each class is also looked for in soft shadows (these shares of the
    #: light: visual-spec.md's shadows darken by up to 45 %) ...
    shade_levels: tuple[float, ...] = (0.7, 0.8, 0.9)
    #: ... and under these veils of white light (linear light added, as a share of
    #: paper white's): a lamp's glare too faint to wash a card out (the photoshoot
    #: model's truth hides a cell from a quarter on) ...
    veil_levels: tuple[float, ...] = (0.03, 0.06, 0.1, 0.15, 0.2)
    #: ... each such look only where it lies further than this (scaled as
    #: ``cell_mean_distance``) from every look of every other class, and from its
    #: printed colour in any shadow down to ``deepest_shadow`` of it (printed units).
    lit_look_separation: float = 64.0
    deepest_shadow: float = 0.55
    #: Colour mats: an affine colour map is fitted on the cells read at first when
    #: at least this many coloured classes (A–E) are among them ...
    colour_fit_min_classes: int = 3
    #: ... drawn towards doing nothing with this weight (against one class's weight of 1) ...
    colour_fit_prior: float = 0.3
    #: ... and refused if any entry of its 3×3 part moves further than this from identity.
    colour_fit_max_change: float = 0.35
    #: A map moving no printed colour by more than this (0..255) is not applied.
    colour_fit_min_shift: float = 4.0
    #: A pixel is "intruder-like" when this close to a colour seen crossing the border.
    intruder_distance: float = 20.0
    #: Intruder colours this close to a class's colour are not used (they would
    #: make that class's own cells ``?``).
    intruder_exclusion: float = 36.0
    #: The same for colours learnt from cells while following an arm (wider:
    #: a cell's own colour under imperfect light must not be learnt).
    intruder_learnt_exclusion: float = 60.0
    #: How many times the intruder's colours are followed from cell to neighbour.
    intruder_growth_rounds: int = 30
    #: More than this share of intruder-like pixels makes a cell ``?``.
    intruder_share: float = 0.08
    #: Border samples further than this from white count as an intruder (a hand).
    intruder_min_distance: float = 45.0
    #: Tags mats: an achromatic pixel (max channel spread below this) darker than
    #: the empty grey is shadow-like.
    grey_chroma: float = 22.0
    grey_min_ratio: float = 0.45
    #: ... and one brighter than it, up to this ratio, is glare-like (a lamp's
    #: reflection on the grey): neither counts as a piece's colour.
    grey_max_ratio: float = 1.45
    #: Tags mats: at most this share of empty- or shadow-like pixels in an ``X`` cell.
    covered_max_grey_share: float = 0.20

    #: A channel of the white border is clipped when at least this share of its
    #: border pixels reach ``saturated_level``: the border then understates that
    #: channel's white, and every cell reads too strong in it (a pinkish empty
    #: grey under a warm cast: failure report plain-001).
    white_clipped_share: float = 0.2
    #: The empty cells then give that channel's white instead: plain cells
    #: (pixel std below ``white_sample_max_std``) whose other channels are
    #: within this of the printed grey ...
    clipped_grey_tolerance: float = 30.0
    #: ... at least this many of them, agreeing within ``clipped_grey_tolerance``
    #: in the clipped channel with their median.
    clipped_min_grey_cells: int = 3

    #: Soft shadows: a border sample is white paper in shadow when its channels'
    #: ratios to the white differ by less than this share of its light ...
    shade_max_tint: float = 0.12
    #: ... and its light is at least this share of the white model's (the spec's
    #: shadows darken by up to 45 %; darker than this is not read).
    shade_min_light: float = 0.45
    #: The light over the grid is filled in from the border and the cells read
    #: surely, at these scales (Gaussian σ in cells, finest first) where their
    #: summed weight exceeds ``shade_min_weight`` ...
    shade_sigmas_cells: tuple[float, ...] = (1.0, 2.5)
    #: Only cells of a class printed this light (brightest channel) tell the light.
    shade_min_class_light: int = 150
    shade_min_weight: float = 0.05
    #: ... and a ``?`` cell at least this much darker than the white model says is
    #: read again under that light, for up to ``shade_rounds`` rounds.
    shade_min_darkening: float = 0.1
    shade_rounds: int = 4

    #: Glare: a pixel is washed out when every channel of the photo is at least
    #: this (the sensor is full) ...
    saturated_level: int = 250
    #: ... or it is brighter than the paper white by this fraction; a cell with
    #: more than ``washed_share`` of such pixels is ``?``.
    glare_over_white: float = 0.1
    washed_share: float = 0.03
    #: The cells this many steps around a washed-out cell are its halo. A halo cell
    #: whose class a darker card brightened by added light could fake (the empty
    #: grey: a dark card or a piece under glare; a class within its L*a*b*
    #: tolerance plus ``glare_reach_margin`` of another class plus white) is ``?`` ...
    glare_halo_cells: int = 1
    glare_reach_margin: float = 5.0
    #: ... when its light (linear, 0..1) differs between its quarters by more than
    #: this (the steep edge of a strong glare) ...
    halo_max_gradient: float = 0.07
    #: ... or it is lighter (L*) than its class's lightest look by more than this ...
    halo_max_brightening: float = 7.0
    #: ... or (colour mats) its chroma exceeds its class's by more than this.
    halo_max_tint: float = 6.0
    #: Anywhere on the mat (a broad glare brightens the border too, so nothing looks
    #: washed out), such a cell is ``?`` when its quarters differ by more than this
    #: and its bright side is lighter than its class (linear) by ``glare_min_excess`` ...
    glare_max_gradient: float = 0.1
    glare_min_excess: float = 0.05
    #: ... or (colour mats) its chroma exceeds its class's by more than this.
    glare_max_tint: float = 10.0
    #: ... or its middle third is lighter (linear, 0..1) than the rest by more than
    #: this (a glare blob centred on a dark card: 0.064 on tuning seed 3010).
    glare_max_rise: float = 0.05

    #: A cell read as the empty grey whose pixels' a*, b* vary round their mean by
    #: more than this (RMS) is ``?``: a pale patterned piece washed by glare.
    empty_max_pattern: float = 10.0
    #: On a tags mat, a cell read ``.`` whose mean look (CIELAB, after a plane fitted
    #: through the mat's own empty cells, for the light's gradient) lies farther from
    #: them than both this and ``unlike_empty_spread`` × their median distance is no
    #: empty cell: a piece whose artwork is within a few levels of the grey (pale
    #: green: 7.6 on photoshoot seed 7; the mat's empty cells: 0.2) is ``X`` ...
    unlike_empty_piece: float = 4.0
    unlike_empty_spread: float = 5.0
    #: ... and one farther than this (and 3.5 × the median) is ``?``.
    unlike_empty_unsure: float = 3.2
    unlike_empty_unsure_spread: float = 3.5
    #: A cell no test could read at first whose tint (a*, b*) lies this far from the
    #: mat's own empty cells' (and ``unlike_empty_spread`` × their spread) is a piece:
    #: pink, green or cream artwork pale enough to pass for neither (photoshoot plain
    #: seeds 1, 12, 22: 14–20 ΔE; a shadow of the empty grey stays within 3).
    unlike_empty_tint: float = 6.0
    #: ... and so is one whose pixels lie this far in tint from them, at least this share
    #: of its pixels (stripes of two hues, or a gradient, average to a grey: sensor noise
    #: of σ = 8 moves a pixel's a*, b* by about 4).
    unlike_empty_pixel_tint: float = 14.0
    unlike_empty_tinted_share: float = 0.5
    #: ... and so is one whose lightness is grained (the median size of its second
    #: differences: one straight edge, a hard shadow's, hardly counts) more than this and
    #: ``unlike_empty_spread`` × the empty cells' grain, with no unknown cell beside it
    #: (photoshoot real seed 31: a marble artwork, 7.9; the empty cells 0.9).
    unlike_empty_grain: float = 4.0
    #: A cell no test could read at first, no further in tint from the mat's empty cells
    #: than this (or this many times theirs, median) and no grainier (std of its pixels'
    #: L* round a plane: a shadow's edge is smooth) than this many times theirs, and
    #: within these shares of their lightness (L*), is an empty cell in a soft shadow
    #: (photoshoot real seeds 14, 27: 0.89-0.95, tint 0.2-0.4; pieces as pale: 1.4 and more).
    unlike_empty_shade_tint: float = 0.6
    unlike_empty_shade_spread: float = 3.0
    unlike_empty_min_shade: float = 0.8
    unlike_empty_max_shade: float = 1.08
    #: The fewest cells read ``.`` on a tags mat for its own empty look to be learnt.
    unlike_empty_min_cells: int = 6

    # -- tags (vision.tags) -----------------------------------------------------
    #: Accepted tag side in cells (printed side 0.7).
    tag_min_side: float = 0.5
    tag_max_side: float = 0.95
    #: Accepted ratio of the shortest to the longest tag side in mat coordinates.
    tag_min_squareness: float = 0.75

    # -- live reading (vision.stability) -----------------------------------------
    #: In live reading, a pose seen through fewer markers than this gives way to
    #: the mat's last pose seen through this many (a hand covers a marker).
    trusted_pose_markers: int = 2
    #: An observation is stable after this many equal consecutive frames.
    stable_frames: int = 3
    #: In a stable run, a cell counts as read once this many of its frames read it (at
    #: most ``stable_frames``); read fewer times it is ``?``. A held card, a hand's edge
    #: or a glint gives a wrong class in one frame and ``?`` in the next: the one wrong
    #: read must not become the run's reading.
    cell_reads: int = 2
    #: A changed reading that still has ``?`` cells (a hand over the mat, a card held
    #: just above it) waits up to this many frames for a reading with none before it is
    #: passed on as it is (``station.live.camera``; 3 s at 3 frames a second).
    part_hidden_frames: int = 9


DEFAULT_CONFIG = ReaderConfig()
