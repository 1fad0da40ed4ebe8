"""tinygrad_ko"""
