using System;
class P { static void Main() { var v = Console.ReadLine().Split(); Console.WriteLine(Adder.Add(int.Parse(v[0]), int.Parse(v[1]))); } }
