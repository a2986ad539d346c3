//! Evaluation tuning on game data: [`texel`] fits a linear evaluation's weights to game results
//! (logistic model, mean squared error); [`spider`] turns `orrery match` records of Spider-Chess
//! or a loaded variant into labelled quiet positions and runs `spider-chess tune`.

pub mod spider;
pub mod texel;
