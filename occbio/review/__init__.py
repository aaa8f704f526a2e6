"""``occbio review``: native speakers check and post-edit a mined test set in their browser."""
