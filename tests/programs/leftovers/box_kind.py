# Prints the file system its box is (the last mount on /box: what the program sees).
kinds = [line.split(" - ")[1].split()[0] for line in open("/proc/self/mountinfo") if line.split()[4] == "/box"]
print(kinds[-1] if kinds else "none")
