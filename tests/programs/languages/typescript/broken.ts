const x: number = "text";
