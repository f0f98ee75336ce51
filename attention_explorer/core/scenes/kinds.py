"""The `kind` each file names: plain strings, so that telling a file's kind imports none of the kinds' modules."""

SEQUENCE_KIND = "sequence"  # a self-attention file (tokens and W_Q, W_K, W_V)
# Files written before the kind was called "sequence" say "self"; they are read as the same kind.
SEQUENCE_KINDS = (SEQUENCE_KIND, "self")
MULTIHEAD_KIND = "multihead"
CROSS_KIND = "cross"
POSITIONS_KIND = "positions"  # the positions lab's scene: d, the pair shown, m, n and the seed
LECTURE_KIND = "lecture"
