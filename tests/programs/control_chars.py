# Wrong answer with control characters in its output (the reports must stay valid XML).
print("\x01\x02\x1b[31m")
