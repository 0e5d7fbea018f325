"""The record: typed events and diagnostics, the contract between the emulator that writes them and
every view that reads them. Imports nothing else of the toolkit."""
