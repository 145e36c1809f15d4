"""Analysis on top of simcore: estimates with intervals, odds and statistics as DataFrames, charts, reports."""
