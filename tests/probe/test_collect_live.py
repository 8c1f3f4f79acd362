"""The live probe on this machine: what a warm run reuses."""
from macml.probe import collect


def test_cpu_features_are_reused_while_the_system_is_unchanged(monkeypatch):
    calls = []
    real = collect.cpu_features

    def counted():
        calls.append(1)
        return real()

    monkeypatch.setattr(collect, "cpu_features", counted)
    fingerprint = {"uname -rm": "0 6.1.0 x86_64\n"}
    first = collect.cached_cpu_features(fingerprint)
    again = collect.cached_cpu_features(fingerprint)
    assert len(calls) == 1 and again["flags"] == first["flags"] and "cached_at" in again
    collect.cached_cpu_features({"uname -rm": "0 6.2.0 x86_64\n"})  # a new kernel: read again
    collect.cached_cpu_features(fingerprint, use_cache=False)  # --refresh
    assert len(calls) == 3
