"""Kernel launch on emulated cores: lives in :mod:`toolkit.launch` (the emulator owns it); re-exported here
for the host-side helpers and kernel ports that import it from ``host``."""
from toolkit.launch import CoreRun, LaunchResult, dry_run, gm_alloc, launch

__all__ = ["CoreRun", "LaunchResult", "dry_run", "gm_alloc", "launch"]
