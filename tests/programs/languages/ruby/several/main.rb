require_relative "add"
a, b = gets.split.map(&:to_i); puts add(a, b)
