export const PRODUCTS = [
  {name: "Oak side table", price: "$129"}, {name: "Wool rug", price: "$240"}, {name: "Glass carafe", price: "$34"},
  {name: "Reading chair", price: "$410"}, {name: "Cotton towels", price: "$28"}, {name: "Pine shelf", price: "$88"},
];
