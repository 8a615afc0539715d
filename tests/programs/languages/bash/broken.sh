if then
  echo (
fi
