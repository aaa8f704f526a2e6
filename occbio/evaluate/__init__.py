"""``occbio evaluate``: translation quality and gender accuracy of MT systems on a mined test
set, by gender and occupation, with bootstrap confidence intervals over documents."""
