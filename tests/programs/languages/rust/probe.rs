// One program, every verdict: the first word of the input says what to do.
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let words: Vec<&str> = text.split_whitespace().collect();
    match words[0] {
        "add" => println!("{}", words[1].parse::<i64>().unwrap() + words[2].parse::<i64>().unwrap()),
        "loop" => {
            // A loop the optimiser cannot remove: its state is read back through a volatile.
            let mut x: u64 = 0;
            loop {
                unsafe { std::ptr::write_volatile(&mut x, std::ptr::read_volatile(&x).wrapping_add(1)) };
            }
        }
        "alloc" => {
            let n: usize = words[1].parse().unwrap();
            let blocks: Vec<Vec<u8>> = (0..n).map(|_| vec![1u8; 1 << 20]).collect();
            println!("{}", blocks.len());
        }
        "crash" => panic!("crash on purpose"),
        "peek" => print!("{}", std::fs::read_to_string(words[1]).unwrap()),
        _ => {}
    }
}
