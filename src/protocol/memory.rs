//! How much memory the `Hash` option may ask for: the advertised maximum comes from the machine's
//! memory, and a value beyond the memory free right now is refused before anything is allocated.

/// `Hash` maximum when the machine's memory cannot be read (not Linux): 16 GiB.
const FALLBACK_MAX_MIB: usize = 16 * 1024;

/// Reads one `Name: N kB` field of `/proc/meminfo`, in MiB.
fn meminfo_mib(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text, field)
}

/// The value of `field` in a `/proc/meminfo` text, in MiB.
fn parse_meminfo(text: &str, field: &str) -> Option<usize> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        let kib: usize = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
        Some(kib / 1024)
    })
}

/// The largest power of two not above `n` (`n >= 1`).
fn floor_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.max(1).leading_zeros())
}

/// The `Hash` maximum for a machine with `total_mib` of memory: the largest power of two of MiB
/// within three quarters of it (16384 on a 24 GiB machine), so that the table and the rest of the
/// system fit.
pub(crate) fn hash_max_for(total_mib: usize) -> usize {
    floor_power_of_two((total_mib / 4 * 3).max(1))
}

/// The advertised `Hash` maximum on this machine (see [`hash_max_for`]).
pub fn hash_max_mib() -> usize {
    meminfo_mib("MemTotal").map_or(FALLBACK_MAX_MIB, hash_max_for)
}

/// Memory that can be had now without swapping, in MiB (`None` when it cannot be read).
pub(crate) fn available_mib() -> Option<usize> {
    meminfo_mib("MemAvailable")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_fields_and_the_maximum() {
        let text = "MemTotal:       24683656 kB\nMemFree:  1000 kB\nMemAvailable:   2048000 kB\n";
        assert_eq!(parse_meminfo(text, "MemTotal"), Some(24105));
        assert_eq!(parse_meminfo(text, "MemAvailable"), Some(2000));
        assert_eq!(parse_meminfo(text, "Mem"), None);
        assert_eq!(parse_meminfo("MemTotal: lots\n", "MemTotal"), None);
        assert_eq!(hash_max_for(24105), 16384);
        assert_eq!(hash_max_for(16 * 1024), 8192);
        assert_eq!(hash_max_for(64 * 1024), 32768);
        assert_eq!(hash_max_for(0), 1);
        assert!(hash_max_mib() >= 1);
    }
}
