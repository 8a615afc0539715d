# Wrong answer: always 0 moves.
input()
input()
print(0)
