//! What a diffusion file generates. A diffusion file is a
//! [`super::ModelFile`] like any other, with a top-level `"kind"`
//! (`"image"` or `"video"`; files without one are per-token files); it
//! measures energy per generated image or video against the latency of a
//! whole batch.

use serde::{Deserialize, Serialize};

/// What a diffusion model generates: the item energy is counted per.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// Text to image: energy per image.
    Image,
    /// Text to video: energy per video.
    Video,
}

impl OutputKind {
    /// The item in words: "image" or "video".
    pub fn item(self) -> &'static str {
        match self {
            OutputKind::Image => "image",
            OutputKind::Video => "video",
        }
    }

    /// The plural: "images" or "videos".
    pub fn items(self) -> &'static str {
        match self {
            OutputKind::Image => "images",
            OutputKind::Video => "videos",
        }
    }

    /// The kind's own fields of a configuration: they must all be present,
    /// and the other kind's must all be absent.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            OutputKind::Image => &IMAGE_FIELDS,
            OutputKind::Video => &VIDEO_FIELDS,
        }
    }
}

const IMAGE_FIELDS: [&str; 4] = [
    "image_height",
    "image_width",
    "joules_per_image",
    "images_per_second",
];

const VIDEO_FIELDS: [&str; 6] = [
    "video_height",
    "video_width",
    "num_frames",
    "fps",
    "joules_per_video",
    "videos_per_second",
];
