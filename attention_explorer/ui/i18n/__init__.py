"""Run-time language switching and the texts generated for translation."""
