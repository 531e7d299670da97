//! DWZ, the German federation's rating (Wertungsordnung des DSB).
